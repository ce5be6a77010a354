import AccessTimeIcon from '@mui/icons-material/AccessTime';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { Box, IconButton, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ticksOfAck } from './messageLogic';

type MessageTicksProps = { id: number | string; ack: number; errorCode?: string | null; onRetry?: () => void };

/** ✓ / ✓✓ grey / ✓✓ / ✓✓ blue by ack; a failed send shows an error mark with a retry. */
export const MessageTicks = ({ id, ack, errorCode, onRetry }: MessageTicksProps) => {
  const { t } = useTranslation();
  const ticks = ticksOfAck(ack, errorCode);
  const sx = { fontSize: 16, verticalAlign: 'middle' };
  const common = { 'data-testid': `message-ack-${id}`, 'data-ack': ack, 'data-ticks': ticks };

  if (ticks === 'error') {
    return (
      <Tooltip title={`${t('tickets.messages.failed')}${errorCode ? ` (${errorCode})` : ''}`}>
        <Box component="span" {...common} sx={{ display: 'inline-flex', alignItems: 'center' }}>
          <ErrorOutlineIcon color="error" sx={sx} />
          {onRetry ? (
            <IconButton
              size="small"
              onClick={onRetry}
              aria-label={t('tickets.messages.retry')}
              data-testid={`message-retry-${id}`}
              sx={{ p: 0.25, fontSize: 12 }}
            >
              ↻
            </IconButton>
          ) : null}
        </Box>
      </Tooltip>
    );
  }

  return (
    <Box component="span" {...common} sx={{ display: 'inline-flex' }}>
      {ticks === 'clock' ? <AccessTimeIcon sx={{ ...sx, color: 'text.disabled' }} /> : null}
      {ticks === 'single' ? <DoneIcon sx={{ ...sx, color: 'text.secondary' }} /> : null}
      {ticks === 'doubleGrey' ? <DoneAllIcon sx={{ ...sx, color: 'text.disabled' }} /> : null}
      {ticks === 'double' ? <DoneAllIcon sx={{ ...sx, color: 'text.secondary' }} /> : null}
      {ticks === 'read' ? <DoneAllIcon sx={{ ...sx, color: '#34b7f1' }} /> : null}
    </Box>
  );
};
