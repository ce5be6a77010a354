import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import { IconButton, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useColorMode } from '../theme/ColorModeProvider';

export const ThemeToggle = () => {
  const { t } = useTranslation();
  const { mode, toggleColorMode } = useColorMode();
  const label = t(mode === 'light' ? 'layout.darkMode' : 'layout.lightMode');

  return (
    <Tooltip title={label}>
      <IconButton color="inherit" onClick={toggleColorMode} aria-label={label} data-testid="theme-toggle">
        {mode === 'light' ? <DarkModeIcon /> : <LightModeIcon />}
      </IconButton>
    </Tooltip>
  );
};
