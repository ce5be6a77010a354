import type { TLanguage } from '@zelo/shared';

const TEXTS: Record<TLanguage, { subject: string; body: (name: string, code: string, minutes: number) => string }> = {
  pt: {
    subject: 'Zelo: código para redefinir sua senha',
    body: (name, code, minutes) =>
      `Olá, ${name}.\n\nSeu código para redefinir a senha é: ${code}\nEle vale por ${minutes} minutos e pode ser usado uma única vez.\n\nSe você não pediu, ignore este e-mail.`,
  },
  en: {
    subject: 'Zelo: your password reset code',
    body: (name, code, minutes) =>
      `Hello, ${name}.\n\nYour password reset code is: ${code}\nIt is valid for ${minutes} minutes and can be used once.\n\nIf you did not ask for it, ignore this e-mail.`,
  },
  es: {
    subject: 'Zelo: código para restablecer su contraseña',
    body: (name, code, minutes) =>
      `Hola, ${name}.\n\nSu código para restablecer la contraseña es: ${code}\nEs válido por ${minutes} minutos y se puede usar una sola vez.\n\nSi usted no lo pidió, ignore este correo.`,
  },
};

export const resetMail = (language: TLanguage, name: string, code: string, minutes: number) => ({
  subject: TEXTS[language].subject,
  text: TEXTS[language].body(name, code, minutes),
});
