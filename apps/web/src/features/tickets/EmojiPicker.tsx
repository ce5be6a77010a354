import MoodIcon from '@mui/icons-material/Mood';
import { Box, CircularProgress, IconButton, Popover, Tooltip } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';

/** the picker and its library load when it first opens (the conversation does not wait for them) */
const EmojiPanel = lazy(() => import('./EmojiPanel').then(({ EmojiPanel }) => ({ default: EmojiPanel })));

type EmojiPickerProps = { disabled?: boolean; onPick: (emoji: string) => void };

/** The composer's emoji button and its picker in a popover; a pick keeps it open for the next one. */
export const EmojiPicker = ({ disabled, onPick }: EmojiPickerProps) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  return (
    <>
      <Tooltip title={t('tickets.composer.emoji')}>
        <span>
          <IconButton
            disabled={disabled}
            onClick={(e) => setAnchor(e.currentTarget)}
            aria-label={t('tickets.composer.emoji')}
            data-testid="composer-emoji"
          >
            <MoodIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { maxWidth: 'calc(100vw - 32px)' } } }}
      >
        <Suspense
          fallback={
            <Box
              sx={{
                width: 336,
                maxWidth: '100%',
                height: 360,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
              }}
            >
              <CircularProgress size={24} aria-label={t('tickets.emoji.loading')} />
            </Box>
          }
        >
          <EmojiPanel onPick={onPick} />
        </Suspense>
      </Popover>
    </>
  );
};
