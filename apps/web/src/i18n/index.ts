import { DEFAULT_LANGUAGE, LANGUAGES, type TLanguage } from '@zelo/shared';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './locales/en';
import { es } from './locales/es';
import { pt } from './locales/pt';

export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/** Stored values may carry a region ('pt-BR'); the app knows pt, en and es. */
export const normalizeLanguage = (value: string | null | undefined): TLanguage | null => {
  const base = value?.slice(0, 2).toLowerCase();

  return (LANGUAGES as readonly string[]).includes(base ?? '') ? (base as TLanguage) : null;
};

const setDocumentLanguage = (lang: string) => {
  if (typeof document !== 'undefined') {
    document.documentElement.lang = lang === 'pt' ? 'pt-BR' : lang;
  }
};

/** Initial language: the stored choice, else English (spec 1 §1); missing keys fall back to Portuguese. */
const initialLanguage = (): TLanguage => normalizeLanguage(localStorage.getItem(LANGUAGE_STORAGE_KEY)) ?? 'en';

void i18n.use(initReactI18next).init({
  resources: { pt: { translation: pt }, en: { translation: en }, es: { translation: es } },
  lng: initialLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
});

i18n.on('languageChanged', (lng) => {
  const lang = normalizeLanguage(lng);
  if (lang) {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
    setDocumentLanguage(lang);
  }
});
setDocumentLanguage(i18n.language);

export const currentLanguage = (): TLanguage => normalizeLanguage(i18n.language) ?? DEFAULT_LANGUAGE;

export const changeLanguage = (lang: TLanguage) => i18n.changeLanguage(lang);

/**
 * A feature module adds its texts under its own namespace key: `registerTranslations('users', { pt, en, es })`
 * makes `t('users.title')` available. Call it at module load, before the first render that uses the keys.
 */
export const registerTranslations = (ns: string, resources: { pt: object; en: object; es: object }) => {
  for (const lang of LANGUAGES) {
    i18n.addResourceBundle(lang, 'translation', { [ns]: resources[lang] }, true, true);
  }
};

export { i18n };
