import { Close } from '@mui/icons-material';
import { Box, Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import type { THelp } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { youtubeEmbedUrl } from './youtube';

type THelpVideoDialogProps = {
  help: THelp | null;
  onClose: () => void;
};

/** Plays the help's YouTube video in an embedded player; closing the dialog unmounts it and stops playback. */
export const HelpVideoDialog = ({ help, onClose }: THelpVideoDialogProps) => {
  const { t } = useTranslation();

  return (
    <Dialog open={help !== null} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle sx={{ pr: 6 }}>
        {help?.title}
        <IconButton aria-label={t('helps.close')} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <Close />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers sx={{ p: 0 }}>
        {help && (
          <Box sx={{ position: 'relative', aspectRatio: '16 / 9', bgcolor: 'common.black' }}>
            <Box
              component="iframe"
              src={youtubeEmbedUrl(help.video)}
              title={help.title}
              allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
              allowFullScreen
              data-testid="help-video-frame"
              sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', border: 0 }}
            />
          </Box>
        )}
      </DialogContent>
    </Dialog>
  );
};
