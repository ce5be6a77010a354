import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import { IconButton } from '@mui/material';
import { useTranslation } from '../i18n/useTranslation';
import { useColorMode } from '../theme/ColorModeProvider';
import { Hint } from './Hint';

export const ThemeToggle = () => {
  const { t } = useTranslation();
  const { mode, toggleColorMode } = useColorMode();
  const label = t(mode === 'light' ? 'layout.darkMode' : 'layout.lightMode');

  return (
    <Hint title={label}>
      <IconButton color="inherit" onClick={toggleColorMode} aria-label={label} data-testid="theme-toggle">
        {mode === 'light' ? <DarkModeIcon /> : <LightModeIcon />}
      </IconButton>
    </Hint>
  );
};
