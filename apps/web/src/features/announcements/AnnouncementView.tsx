import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import type { TAnnouncement } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { announcementImageUrl } from './announcementLogic';

/** One announcement opened from the popover: title, image and the whole text. */
export const AnnouncementView = ({
  announcement,
  onClose,
}: {
  announcement: TAnnouncement | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const url = announcement ? announcementImageUrl(announcement) : null;

  return (
    <Dialog open={announcement !== null} onClose={onClose} maxWidth="sm" fullWidth data-testid="announcement-view">
      <DialogTitle sx={{ overflowWrap: 'anywhere' }}>{announcement?.title}</DialogTitle>
      <DialogContent dividers>
        {url && (
          <Box
            component="img"
            src={url}
            alt={announcement?.mediaName ?? ''}
            sx={{ display: 'block', maxWidth: '100%', maxHeight: 320, mx: 'auto', mb: 2, objectFit: 'contain' }}
          />
        )}
        <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{announcement?.text}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('announcements.popover.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};
