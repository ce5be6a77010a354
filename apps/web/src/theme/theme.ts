import { createTheme, type PaletteMode } from '@mui/material';
import type { Localization } from '@mui/material/locale';
import { enUS, esES, ptBR } from '@mui/material/locale';

const LOCALES: Record<string, Localization> = { pt: ptBR, en: enUS, es: esES };

/** A primary green in the light theme, white in the dark theme (spec 3 §9). */
export const buildTheme = (mode: PaletteMode, language: string) =>
  createTheme(
    {
      palette:
        mode === 'light'
          ? {
              mode,
              primary: { main: '#00875f', contrastText: '#ffffff' },
              secondary: { main: '#0b5c4a' },
              background: { default: '#f3f5f7', paper: '#ffffff' },
            }
          : {
              mode,
              primary: { main: '#f5f5f5', contrastText: '#121212' },
              secondary: { main: '#7ed9b5' },
              background: { default: '#121417', paper: '#1c1f24' },
            },
      shape: { borderRadius: 8 },
      typography: { fontFamily: 'Inter, Roboto, "Helvetica Neue", Arial, sans-serif' },
      components: {
        MuiAppBar: {
          styleOverrides: {
            colorPrimary: mode === 'dark' ? { backgroundColor: '#1c1f24', color: '#f5f5f5' } : {},
          },
        },
        MuiButton: { defaultProps: { disableElevation: true } },
      },
    },
    LOCALES[language] ?? ptBR,
  );
