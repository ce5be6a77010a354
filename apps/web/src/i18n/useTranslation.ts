import { useMemo, useSyncExternalStore } from 'react';
import { i18n } from './index';
import type { TFunction } from './translator';

const subscribe = (onChange: () => void) => i18n.onLanguageChanged(onChange);
const currentLanguage = () => i18n.language;

/**
 * The texts of the current language for a component: `t` changes (and the component renders again) when the
 * language does, as react-i18next's hook of the same name.
 */
export const useTranslation = (): { t: TFunction; i18n: typeof i18n } => {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  const t = useMemo(() => i18n.getFixedT(language), [language]);

  return { t, i18n };
};
