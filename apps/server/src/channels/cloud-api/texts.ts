/** The few texts the Cloud API driver stores for attendants to read, in the company's language. */

export type TLang = 'pt' | 'en' | 'es';

const TEXTS = {
  unsupported: {
    pt: '[Mensagem não suportada pela API oficial do WhatsApp]',
    en: '[Message not supported by the WhatsApp Cloud API]',
    es: '[Mensaje no compatible con la API oficial de WhatsApp]',
  },
  order: {
    pt: '[Pedido do catálogo]',
    en: '[Catalog order]',
    es: '[Pedido del catálogo]',
  },
  system: {
    pt: '[Aviso do WhatsApp]',
    en: '[WhatsApp notice]',
    es: '[Aviso de WhatsApp]',
  },
} as const;

export type TCloudText = keyof typeof TEXTS;

export const asLang = (value: unknown): TLang => (value === 'en' || value === 'es' ? value : 'pt');

export const cloudText = (lang: TLang, key: TCloudText) => TEXTS[key][lang];
