import { DEFAULT_LANGUAGE, LANGUAGES, type TLanguage } from '@zelo/shared';
import { afterFirstScreen } from '../app/firstScreen';
import { en } from './locales/en';
import { createTranslator } from './translator';

/**
 * The shell's texts: English, the language of a first visit (spec 1 §1), is in the bundle; Portuguese and Spanish
 * are chunks of their own, fetched when they are chosen (a stored choice: before the first render, `languageReady`)
 * — a browser loads one language's texts, not three (issue 23's inbox budget). Portuguese, the fallback, follows
 * once the first screen has shown. Feature modules add their texts in all three (`registerTranslations`).
 */
const LAZY_LANGUAGES: Partial<Record<string, () => Promise<object>>> = {
  pt: () => import('./locales/pt').then((m) => m.pt),
  es: () => import('./locales/es').then((m) => m.es),
};

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

const i18n = createTranslator({
  language: 'en',
  fallbackLanguage: DEFAULT_LANGUAGE,
  load: (language) => LAZY_LANGUAGES[language]?.(),
});
i18n.addResources('en', en);

i18n.onLanguageChanged((lng) => {
  const lang = normalizeLanguage(lng);
  if (lang) {
    if (typeof localStorage !== 'undefined') localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
    setDocumentLanguage(lang);
  }
});
setDocumentLanguage(i18n.language);

/** the first render waits for this: the stored language's texts are there (if they could not be fetched: English) */
export const languageReady: Promise<void> = i18n.changeLanguage(initialLanguage()).catch(() => undefined);
void languageReady.then(afterFirstScreen).then(() => i18n.loadLanguage(DEFAULT_LANGUAGE).catch(() => undefined));

export const currentLanguage = (): TLanguage => normalizeLanguage(i18n.language) ?? DEFAULT_LANGUAGE;

/** switches once the language's texts are there; false when they could not be fetched (the language stays) */
export const changeLanguage = (lang: TLanguage): Promise<boolean> =>
  i18n.changeLanguage(lang).then(
    () => true,
    () => false,
  );

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
