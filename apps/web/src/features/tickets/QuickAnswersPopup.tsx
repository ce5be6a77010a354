import AttachFileIcon from '@mui/icons-material/AttachFile';
import { List, ListItemButton, ListItemIcon, ListItemText, Paper, Typography } from '@mui/material';
import type { TQuickMessage } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { quickAnswerLabel } from './quickAnswers';

type QuickAnswersPopupProps = { items: TQuickMessage[]; highlight?: number; onPick: (item: TQuickMessage) => void };

/** Suggestions above the composer while its text starts with '/' (arrows move, Enter or Tab takes, Escape closes). */
export const QuickAnswersPopup = ({ items, highlight = 0, onPick }: QuickAnswersPopupProps) => {
  const { t } = useTranslation();
  if (items.length === 0) {
    return null;
  }

  return (
    <Paper
      elevation={4}
      sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, maxHeight: 240, overflowY: 'auto', zIndex: 2 }}
      data-testid="quick-answers"
    >
      <Typography variant="caption" color="text.secondary" sx={{ px: 2, pt: 1, display: 'block' }}>
        {t('tickets.composer.quickAnswers')}
      </Typography>
      <List dense>
        {items.map((item, index) => (
          <ListItemButton
            key={item.id}
            selected={index === highlight}
            // keeps the focus in the composer's input
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(item)}
            data-testid={`quick-answer-${item.id}`}
          >
            <ListItemText
              primary={`/${item.shortcode}`}
              secondary={quickAnswerLabel(item.message || (item.mediaName ?? ''))}
              slotProps={{ secondary: { noWrap: true } }}
            />
            {item.mediaPath ? (
              <ListItemIcon sx={{ minWidth: 0, ml: 1 }} title={item.mediaName ?? ''}>
                <AttachFileIcon fontSize="small" data-testid={`quick-answer-file-${item.id}`} />
              </ListItemIcon>
            ) : null}
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
};
