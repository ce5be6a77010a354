import { HelpOutline } from '@mui/icons-material';
import { Box, CircularProgress, Grid, Typography } from '@mui/material';
import type { THelp } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { HelpCard } from './HelpCard';
import { HelpVideoDialog } from './HelpVideoDialog';
import './i18n';
import { useHelps } from './useHelps';

/** /helps (every user): help videos as cards; a card opens its video. */
const HelpsPage = () => {
  const { t } = useTranslation();
  const helpsQuery = useHelps();
  const [playing, setPlaying] = useState<THelp | null>(null);
  const helps = helpsQuery.data ?? [];

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="h5" component="h1">
        {t('helps.title')}
      </Typography>
      {helpsQuery.isLoading && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress />
        </Box>
      )}
      {helpsQuery.isError && (
        <Typography color="error" role="alert">
          {t('helps.loadError')}
        </Typography>
      )}
      {helpsQuery.isSuccess && helps.length === 0 && (
        <Box
          data-testid="helps-empty"
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, p: 6, color: 'text.secondary' }}
        >
          <HelpOutline sx={{ fontSize: 48 }} />
          <Typography>{t('helps.empty')}</Typography>
        </Box>
      )}
      <Grid container spacing={2}>
        {helps.map((help) => (
          <Grid key={help.id} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
            <HelpCard help={help} onOpen={setPlaying} />
          </Grid>
        ))}
      </Grid>
      <HelpVideoDialog help={playing} onClose={() => setPlaying(null)} />
    </Box>
  );
};

export default HelpsPage;
