import { List, ListItemButton, ListItemText, Paper, Typography } from '@mui/material';
import type { TQuickMessage } from '@zelo/shared';
import { useTranslation } from 'react-i18next';
import { quickAnswerLabel } from './quickAnswers';

type QuickAnswersPopupProps = { items: TQuickMessage[]; onPick: (item: TQuickMessage) => void };

/** Suggestions above the composer while its text starts with '/'. */
export const QuickAnswersPopup = ({ items, onPick }: QuickAnswersPopupProps) => {
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
        {items.map((item) => (
          <ListItemButton key={item.id} onClick={() => onPick(item)} data-testid={`quick-answer-${item.id}`}>
            <ListItemText primary={`/${item.shortcode}`} secondary={quickAnswerLabel(item.message)} />
          </ListItemButton>
        ))}
      </List>
    </Paper>
  );
};
