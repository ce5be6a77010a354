import CheckCircle from '@mui/icons-material/CheckCircle';
import CropFree from '@mui/icons-material/CropFree';
import LinkOff from '@mui/icons-material/LinkOff';
import PhonelinkRing from '@mui/icons-material/PhonelinkRing';
import TimerOff from '@mui/icons-material/TimerOff';
import { Box, CircularProgress, Tooltip, Typography } from '@mui/material';
import type { TConnectionStatus } from '@zelo/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type TStatusMeta = { color: string; icon: ReactNode };

const META: Record<TConnectionStatus, TStatusMeta> = {
  CONNECTED: { color: 'success.main', icon: <CheckCircle fontSize="small" /> },
  DISCONNECTED: { color: 'error.main', icon: <LinkOff fontSize="small" /> },
  OPENING: { color: 'info.main', icon: <CircularProgress size={16} color="inherit" /> },
  qrcode: { color: 'info.main', icon: <CropFree fontSize="small" /> },
  PAIRING: { color: 'warning.main', icon: <PhonelinkRing fontSize="small" /> },
  TIMEOUT: { color: 'warning.main', icon: <TimerOff fontSize="small" /> },
};

/** A connection's status: icon and label in its colour, with an explanation on hover. */
export const ConnectionStatus = ({ status, testId }: { status: TConnectionStatus; testId?: string }) => {
  const { t } = useTranslation();
  const meta = META[status] ?? META.DISCONNECTED;

  return (
    <Tooltip title={t(`connections.statusHint.${status}`)}>
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
    </Tooltip>
  );
};
