import CloseIcon from '@mui/icons-material/Close';
import { Box, IconButton, Stack, Typography } from '@mui/material';
import type { TMessage } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { lastMessagePreview } from './messageLogic';

type ReplyBarProps = { message: TMessage; contactName: string; onCancel: () => void };

/** The message being answered, above the composer. */
export const ReplyBar = ({ message, contactName, onCancel }: ReplyBarProps) => {
  const { t } = useTranslation();
  const name = message.fromMe ? t('tickets.messages.you') : contactName;

  return (
    <Stack direction="row" alignItems="center" sx={{ px: 1, pt: 1 }} data-testid="reply-bar">
      <Box
        sx={{
          flex: 1,
          minWidth: 0,
          borderLeft: 4,
          borderColor: 'primary.main',
          bgcolor: 'action.hover',
          borderRadius: 1,
          px: 1,
          py: 0.5,
        }}
      >
        <Typography variant="caption" color="primary" fontWeight={600}>
          {t('tickets.composer.replyingTo', { name })}
        </Typography>
        <Typography variant="body2" noWrap color="text.secondary">
          {lastMessagePreview(message.body, (key) => t(`tickets.previewLabels.${key}`)) || message.mediaType}
        </Typography>
      </Box>
      <IconButton onClick={onCancel} aria-label={t('tickets.composer.cancelReply')} data-testid="reply-cancel">
        <CloseIcon />
      </IconButton>
    </Stack>
  );
};
