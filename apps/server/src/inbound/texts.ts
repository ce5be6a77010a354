import { localTime } from './working-hours';

/** Texts the pipeline writes itself, in the company language (pt, en, es; pt when unknown). */

export type TLang = 'pt' | 'en' | 'es';

export const asLang = (value: string | null | undefined): TLang =>
  value === 'en' || value === 'es' || value === 'pt' ? value : 'pt';

const TEXTS = {
  previousMenu: { pt: 'Menu anterior', en: 'Previous menu', es: 'Menú anterior' },
  mainMenu: { pt: 'Menu inicial', en: 'Main menu', es: 'Menú inicial' },
  location: { pt: 'Localização', en: 'Location', es: 'Ubicación' },
  media: { pt: 'Arquivo de mídia', en: 'Media file', es: 'Archivo multimedia' },
  audio: { pt: 'Áudio', en: 'Audio', es: 'Audio' },
  contact: { pt: 'Contato', en: 'Contact', es: 'Contacto' },
  callsDisabled: {
    pt: 'As chamadas de voz e vídeo estão desabilitadas para este WhatsApp. Por favor, envie uma mensagem de texto.',
    en: 'Voice and video calls are not accepted on this WhatsApp. Please send a text message.',
    es: 'Las llamadas de voz y video no se aceptan en este WhatsApp. Por favor, envíe un mensaje de texto.',
  },
  missedVoiceCall: {
    pt: 'Chamada de voz perdida às {time}',
    en: 'Missed voice call at {time}',
    es: 'Llamada de voz perdida a las {time}',
  },
  missedVideoCall: {
    pt: 'Chamada de vídeo perdida às {time}',
    en: 'Missed video call at {time}',
    es: 'Videollamada perdida a las {time}',
  },
} as const;

export type TTextKey = keyof typeof TEXTS;

export const text = (lang: TLang, key: TTextKey, params: Record<string, string> = {}) =>
  TEXTS[key][lang].replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:mm in the company's time zone */
export const clockText = (date: Date, timeZone: string) => {
  const t = localTime(date, timeZone);

  return `${pad(t.hour)}:${pad(t.minute)}`;
};

export const missedCallText = (lang: TLang, isVideo: boolean, date: Date, timeZone: string) =>
  text(lang, isVideo ? 'missedVideoCall' : 'missedVoiceCall', { time: clockText(date, timeZone) });
