import { Box, Button, Typography } from '@mui/material';
import { useTranslation } from '../i18n/useTranslation';
import { Link as RouterLink } from 'react-router';

export const NotFound = () => {
  const { t } = useTranslation();

  return (
    <Box sx={{ p: 4, textAlign: 'center' }} data-testid="not-found">
      <Typography variant="h5" component="h1" gutterBottom>
        {t('notFound.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('notFound.text')}
      </Typography>
      <Button component={RouterLink} to="/" variant="outlined">
        {t('comingSoon.home')}
      </Button>
    </Box>
  );
};
