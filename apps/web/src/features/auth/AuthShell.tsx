import ForumIcon from '@mui/icons-material/Forum';
import { Avatar, Box, Container, Paper, Typography } from '@mui/material';
import { APP_VERSION } from '@zelo/shared';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { LanguagePicker } from '../../components/LanguagePicker';
import { ThemeToggle } from '../../components/ThemeToggle';

type AuthShellProps = { title: string; children: ReactNode };

/** The frame of /login, /signup and /forgetpsw: language menu, card, copyright line with version. */
export const AuthShell = ({ title, children }: AuthShellProps) => {
  const { t } = useTranslation();

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1, gap: 1 }}>
        <LanguagePicker variant="text" />
        <ThemeToggle />
      </Box>
      <Container maxWidth="xs" sx={{ flex: 1, display: 'flex', alignItems: 'center', py: 2 }}>
        <Paper elevation={3} sx={{ p: 4, width: '100%' }}>
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 2 }}>
            <Avatar sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', mb: 1, width: 48, height: 48 }}>
              <ForumIcon />
            </Avatar>
            <Typography variant="h6" component="div" sx={{ fontWeight: 700, letterSpacing: 1 }}>
              Zelo
            </Typography>
            <Typography component="h1" variant="h5" sx={{ mt: 1 }}>
              {title}
            </Typography>
          </Box>
          {children}
        </Paper>
      </Container>
      <Typography variant="body2" color="text.secondary" align="center" sx={{ py: 2 }} data-testid="copyright">
        {t('login.copyright', { year: new Date().getFullYear(), version: APP_VERSION })}
      </Typography>
    </Box>
  );
};
