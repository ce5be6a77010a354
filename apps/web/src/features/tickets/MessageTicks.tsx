import AccessTimeIcon from '@mui/icons-material/AccessTime';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import { Box, Tooltip } from '@mui/material';
import { useTranslation } from '../../i18n/useTranslation';
import { ticksOfAck } from './messageLogic';

type MessageTicksProps = { id: number | string; ack: number; errorCode?: string | null };

/** ✓ / ✓✓ grey / ✓✓ / ✓✓ blue by ack; a failed send shows an error mark (its reason and retry sit in the bubble). */
export const MessageTicks = ({ id, ack, errorCode }: MessageTicksProps) => {
  const { t } = useTranslation();
  const ticks = ticksOfAck(ack, errorCode);
  const sx = { fontSize: 16, verticalAlign: 'middle' };
  const common = { 'data-testid': `message-ack-${id}`, 'data-ack': ack, 'data-ticks': ticks };

  if (ticks === 'error') {
    return (
      <Tooltip title={`${t('tickets.messages.failed')}${errorCode ? ` (${errorCode})` : ''}`}>
        <Box component="span" {...common} sx={{ display: 'inline-flex', alignItems: 'center' }}>
          <ErrorOutlineIcon color="error" sx={sx} />
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
