import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import ReplayIcon from '@mui/icons-material/Replay';
import { Box, Button, Stack, Typography } from '@mui/material';
import type { TMessage } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';

type MessageFailureProps = { message: TMessage; onRetry?: () => void; retrying?: boolean };

/** Why an own message did not go out (the catalogue text of its code, and the channel's words), and a retry. */
export const MessageFailure = ({ message, onRetry, retrying }: MessageFailureProps) => {
  const { t, i18n } = useTranslation();
  const code = message.errorCode ?? '';
  const key = `errors.${code}`;
  const known = Boolean(code) && i18n.exists(key);
  const reason = known ? t(key) : message.errorMessage || code;
  const detail = known && message.errorMessage && message.errorMessage !== reason ? message.errorMessage : '';

  return (
    <Box
      sx={{ mt: 0.75, pt: 0.5, borderTop: 1, borderColor: 'divider' }}
      data-testid={`message-error-${message.id}`}
      data-error-code={code}
    >
      <Stack direction="row" spacing={0.5} alignItems="flex-start" sx={{ color: 'error.main' }}>
        <ErrorOutlineIcon sx={{ fontSize: 16, mt: '2px' }} />
        <Typography variant="caption" sx={{ flex: 1, minWidth: 0, lineHeight: 1.5 }}>
          {t('tickets.messages.notSent', { reason })}
        </Typography>
      </Stack>
      {detail ? (
        <Typography
          variant="caption"
          component="div"
          color="text.secondary"
          sx={{ pl: 2.5, wordBreak: 'break-word' }}
          data-testid={`message-error-detail-${message.id}`}
        >
          {detail}
        </Typography>
      ) : null}
      {onRetry ? (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button
            size="small"
            color="error"
            startIcon={<ReplayIcon />}
            onClick={onRetry}
            disabled={retrying}
            data-testid={`message-retry-${message.id}`}
            sx={{ py: 0, minHeight: 0, textTransform: 'none' }}
          >
            {t('tickets.messages.retry')}
          </Button>
        </Box>
      ) : null}
    </Box>
  );
};
