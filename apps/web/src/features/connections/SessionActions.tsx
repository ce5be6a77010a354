import { Button, CircularProgress, Stack } from '@mui/material';
import type { TConnection } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http';
import { toastError } from '../../components/toast';

type TSessionActionsProps = { connection: TConnection; onShowQr: (connection: TConnection) => void };

/** The buttons of the session column, by status (spec 1 §2). */
export const SessionActions = ({ connection, onShowQr }: TSessionActionsProps) => {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const testId = (what: string) => `connection-${what}-${connection.id}`;

  const run = async (method: 'post' | 'put' | 'delete') => {
    setBusy(true);
    try {
      await api[method](`/whatsappsession/${connection.id}`);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  switch (connection.status) {
    case 'qrcode':
      return (
        <Button size="small" variant="contained" onClick={() => onShowQr(connection)} data-testid={testId('qr')}>
          {t('connections.actions.qrcode')}
        </Button>
      );
    case 'DISCONNECTED':
      return (
        <Stack direction="row" spacing={1}>
          <Button
            size="small"
            variant="outlined"
            disabled={busy}
            onClick={() => void run('post')}
            data-testid={testId('retry')}
          >
            {t('connections.actions.tryAgain')}
          </Button>
          <Button
            size="small"
            variant="contained"
            disabled={busy}
            onClick={() => void run('put')}
            data-testid={testId('newqr')}
          >
            {t('connections.actions.newQr')}
          </Button>
        </Stack>
      );
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return (
        <Button
          size="small"
          variant="outlined"
          color="error"
          disabled={busy}
          onClick={() => void run('delete')}
          data-testid={testId('disconnect')}
        >
          {t('connections.actions.disconnect')}
        </Button>
      );
    case 'OPENING':
      return (
        <Button
          size="small"
          variant="outlined"
          disabled
          startIcon={<CircularProgress size={14} color="inherit" />}
          data-testid={testId('connecting')}
        >
          {t('connections.actions.connecting')}
        </Button>
      );
    default:
      return null;
  }
};
