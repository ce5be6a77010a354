import { CssBaseline, type PaletteMode, ThemeProvider } from '@mui/material';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from '../i18n/useTranslation';
import { buildTheme } from './theme';

export const THEME_STORAGE_KEY = 'preferredTheme';

/** The saved preference, otherwise the system dark-mode preference (spec 3 §4). */
const initialMode = (): PaletteMode => {
  const saved = localStorage.getItem(THEME_STORAGE_KEY);
  if (saved === 'light' || saved === 'dark') {
    return saved;
  }

  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches
    ? 'dark'
    : 'light';
};

type ColorModeValue = { mode: PaletteMode; toggleColorMode: () => void };

const ColorModeContext = createContext<ColorModeValue>({ mode: 'light', toggleColorMode: () => undefined });

export const ColorModeProvider = ({ children }: { children: ReactNode }) => {
  const { i18n } = useTranslation();
  const [mode, setMode] = useState<PaletteMode>(initialMode);
  const toggleColorMode = useCallback(() => {
    setMode((current) => {
      const next = current === 'light' ? 'dark' : 'light';
      localStorage.setItem(THEME_STORAGE_KEY, next);

      return next;
    });
  }, []);
  const theme = useMemo(() => buildTheme(mode, i18n.language), [mode, i18n.language]);
  const value = useMemo(() => ({ mode, toggleColorMode }), [mode, toggleColorMode]);

  return (
    <ColorModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ColorModeContext.Provider>
  );
};

export const useColorMode = () => useContext(ColorModeContext);
