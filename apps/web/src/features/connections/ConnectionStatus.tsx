import CheckCircle from '@mui/icons-material/CheckCircle';
import CropFree from '@mui/icons-material/CropFree';
import LinkOff from '@mui/icons-material/LinkOff';
import PhonelinkRing from '@mui/icons-material/PhonelinkRing';
import TimerOff from '@mui/icons-material/TimerOff';
import { Box, CircularProgress, Tooltip, Typography } from '@mui/material';
import type { TChannelProvider, TConnectionError, TConnectionStatus } from '@zelo/shared';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/useTranslation';

type TStatusMeta = { color: string; icon: ReactNode };

const META: Record<TConnectionStatus, TStatusMeta> = {
  CONNECTED: { color: 'success.main', icon: <CheckCircle fontSize="small" /> },
  DISCONNECTED: { color: 'error.main', icon: <LinkOff fontSize="small" /> },
  OPENING: { color: 'info.main', icon: <CircularProgress size={16} color="inherit" /> },
  qrcode: { color: 'info.main', icon: <CropFree fontSize="small" /> },
  PAIRING: { color: 'warning.main', icon: <PhonelinkRing fontSize="small" /> },
  TIMEOUT: { color: 'warning.main', icon: <TimerOff fontSize="small" /> },
};

/**
 * The explanation of a status, in the words of the connection's transport: a Cloud API connection has no phone
 * to scan with, so its DISCONNECTED points at the access token; a Baileys one may also pair by phone number.
 */
export const statusHintKey = (status: TConnectionStatus, provider: TChannelProvider = 'sandbox') =>
  provider === 'sandbox' ? `connections.statusHint.${status}` : `connections.statusHintBy.${provider}.${status}`;

/** A short line under the status where the user has something to do (Cloud API: check the access token). */
const NOTE_KEYS: Partial<Record<TChannelProvider, Partial<Record<TConnectionStatus, string>>>> = {
  'cloud-api': {
    DISCONNECTED: 'connections.statusNote.cloudDisconnected',
    TIMEOUT: 'connections.statusNote.cloudTimeout',
  },
  baileys: { PAIRING: 'connections.statusNote.baileysPairing' },
};

/** why the session fails, while it is not working (a QR code or CONNECTED means it was reached) */
const FAILING: TConnectionStatus[] = ['OPENING', 'DISCONNECTED', 'TIMEOUT'];

/** the line under the status: why the session fails, else what the user has to do */
export const statusNoteKey = (
  status: TConnectionStatus,
  provider: TChannelProvider = 'sandbox',
  error?: TConnectionError | null,
) => (error && FAILING.includes(status) ? `connections.lastError.${error}` : NOTE_KEYS[provider]?.[status]);

type TConnectionStatusProps = {
  status: TConnectionStatus;
  provider?: TChannelProvider;
  /** why the session last failed (`lastError` of the connection) */
  error?: TConnectionError | null;
  testId?: string;
};

/** A connection's status: icon and label in its colour, with an explanation on hover. */
export const ConnectionStatus = ({ status, provider = 'sandbox', error, testId }: TConnectionStatusProps) => {
  const { t } = useTranslation();
  const meta = META[status] ?? META.DISCONNECTED;
  const note = statusNoteKey(status, provider, error);

  return (
    <Tooltip title={t(statusHintKey(status, provider))}>
      <Box sx={{ display: 'inline-flex', flexDirection: 'column' }}>
        <Box
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75, color: meta.color }}
          data-testid={testId}
          data-status={status}
        >
          {meta.icon}
          <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
            {t(`connections.status.${status}`)}
          </Typography>
        </Box>
        {note ? (
          <Typography variant="caption" color="text.secondary" data-testid={testId ? `${testId}-note` : undefined}>
            {t(note)}
          </Typography>
        ) : null}
      </Box>
    </Tooltip>
  );
};
