import MoodIcon from '@mui/icons-material/Mood';
import { Box, ButtonBase, IconButton, Popover, Tab, Tabs, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMOJI_GROUPS, emojisOf, type TEmojiGroupKey } from './emojiData';

type EmojiPickerProps = { disabled?: boolean; onPick: (emoji: string) => void };

/** The composer's emoji button and its grid by category. */
export const EmojiPicker = ({ disabled, onPick }: EmojiPickerProps) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [group, setGroup] = useState<TEmojiGroupKey>('smileys');

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
        slotProps={{ paper: { sx: { width: 320 } } }}
      >
        <Tabs
          value={group}
          onChange={(_e, v: TEmojiGroupKey) => setGroup(v)}
          variant="fullWidth"
          sx={{ minHeight: 40 }}
        >
          {EMOJI_GROUPS.map((g) => (
            <Tab
              key={g.key}
              value={g.key}
              label={g.icon}
              aria-label={t(`tickets.emoji.${g.key}`)}
              sx={{ minWidth: 0, minHeight: 40, fontSize: 20 }}
            />
          ))}
        </Tabs>
        <Box
          sx={{ display: 'grid', gridTemplateColumns: 'repeat(8, 1fr)', p: 1, maxHeight: 240, overflowY: 'auto' }}
          data-testid="emoji-grid"
        >
          {emojisOf(group).map((emoji) => (
            <ButtonBase
              key={emoji}
              onClick={() => onPick(emoji)}
              sx={{ fontSize: 22, p: 0.5, borderRadius: 1, '&:hover': { bgcolor: 'action.hover' } }}
              data-testid="emoji-option"
            >
              {emoji}
            </ButtonBase>
          ))}
        </Box>
      </Popover>
    </>
  );
};
