import { DEFAULT_LANGUAGE, LANGUAGES, type TLanguage } from '@zelo/shared';
import { en } from './locales/en';
import { es } from './locales/es';
import { pt } from './locales/pt';
import { createTranslator } from './translator';

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
const initialLanguage = (): TLanguage =>
  (typeof localStorage === 'undefined' ? null : normalizeLanguage(localStorage.getItem(LANGUAGE_STORAGE_KEY))) ?? 'en';

const i18n = createTranslator({ language: initialLanguage(), fallbackLanguage: DEFAULT_LANGUAGE });
i18n.addResources('pt', pt);
i18n.addResources('en', en);
i18n.addResources('es', es);

i18n.onLanguageChanged((lng) => {
  const lang = normalizeLanguage(lng);
  if (lang) {
    if (typeof localStorage !== 'undefined') localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
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
    i18n.addResources(lang, { [ns]: resources[lang] });
  }
};

export { i18n };
