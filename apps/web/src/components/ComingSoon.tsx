import ConstructionIcon from '@mui/icons-material/Construction';
import { Box, Button, Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

type ComingSoonProps = { titleKey: string };

/** The page of a route whose screen a later issue builds. */
export const ComingSoon = ({ titleKey }: ComingSoonProps) => {
  const { t } = useTranslation();

  return (
    <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }} data-testid="coming-soon">
      <Paper variant="outlined" sx={{ p: 4, maxWidth: 560, width: '100%', textAlign: 'center' }}>
        <ConstructionIcon color="disabled" sx={{ fontSize: 56, mb: 1 }} />
        <Typography variant="h5" component="h1" gutterBottom>
          {t(titleKey)}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('comingSoon.text')}
        </Typography>
        <Button component={RouterLink} to="/" variant="outlined">
          {t('comingSoon.home')}
        </Button>
      </Paper>
    </Box>
  );
};
