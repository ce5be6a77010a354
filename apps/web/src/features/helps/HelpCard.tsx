import { PlayCircleOutline } from '@mui/icons-material';
import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import type { THelp } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';

type THelpCardProps = {
  help: THelp;
  onOpen: (help: THelp) => void;
};

/** A help entry: a play-icon panel (thumbnails are not fetched, the app may run offline), title and description. */
export const HelpCard = ({ help, onOpen }: THelpCardProps) => {
  const { t } = useTranslation();
  const hasVideo = help.video.trim() !== '';

  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid={`help-card-${help.id}`}>
      <CardActionArea
        onClick={() => onOpen(help)}
        disabled={!hasVideo}
        aria-label={hasVideo ? `${t('helps.watch')}: ${help.title}` : help.title}
        sx={{ height: '100%', display: 'flex', flexDirection: 'column', alignItems: 'stretch' }}
      >
        <Box
          sx={{
            aspectRatio: '16 / 9',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            bgcolor: 'action.hover',
            color: hasVideo ? 'primary.main' : 'text.disabled',
          }}
        >
          <PlayCircleOutline sx={{ fontSize: 64 }} />
        </Box>
        <CardContent sx={{ flex: 1 }}>
          <Typography variant="subtitle1" component="h2" gutterBottom>
            {help.title}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'pre-line' }}>
            {help.description || (hasVideo ? '' : t('helps.noVideo'))}
          </Typography>
        </CardContent>
      </CardActionArea>
    </Card>
  );
};
