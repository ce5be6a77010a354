import Dialpad from '@mui/icons-material/Dialpad';
import { Button, CircularProgress, Stack } from '@mui/material';
import type { TConnection } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { toastError } from '../../components/toast';
import { type TSessionAction, sessionActions } from './sessionActionList';

type TSessionActionsProps = {
  connection: TConnection;
  onShowQr: (connection: TConnection) => void;
  /** Baileys: pair by a code typed on the phone instead of the QR code */
  onPairByPhone: (connection: TConnection) => void;
};

/** The buttons of the session column, by provider and status. */
export const SessionActions = ({ connection, onShowQr, onPairByPhone }: TSessionActionsProps) => {
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

  const button = (action: TSessionAction) => {
    switch (action) {
      case 'qr':
        return (
          <Button size="small" variant="contained" onClick={() => onShowQr(connection)} data-testid={testId('qr')}>
            {t('connections.actions.qrcode')}
          </Button>
        );
      case 'pairPhone':
      case 'showCode':
        return (
          <Button
            size="small"
            variant="outlined"
            startIcon={<Dialpad fontSize="small" />}
            onClick={() => onPairByPhone(connection)}
            title={t('connections.actions.pairPhoneTitle')}
            data-testid={testId(action === 'pairPhone' ? 'pair-phone' : 'show-code')}
          >
            {t(action === 'pairPhone' ? 'connections.actions.pairPhone' : 'connections.actions.showCode')}
          </Button>
        );
      case 'retry':
      case 'check':
        return (
          <Button
            size="small"
            variant={action === 'check' ? 'contained' : 'outlined'}
            disabled={busy}
            onClick={() => void run('post')}
            data-testid={testId(action)}
          >
            {t(action === 'check' ? 'connections.actions.check' : 'connections.actions.tryAgain')}
          </Button>
        );
      case 'newqr':
        return (
          <Button
            size="small"
            variant="contained"
            disabled={busy}
            onClick={() => void run('put')}
            data-testid={testId('newqr')}
          >
            {t('connections.actions.newQr')}
          </Button>
        );
      case 'disconnect':
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
      case 'connecting':
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
    }
  };

  const actions = sessionActions(connection.provider, connection.status);
  if (actions.length === 0) {
    return null;
  }

  return (
    <Stack
      direction="row"
      useFlexGap
      flexWrap="wrap"
      gap={1}
      justifyContent="center"
      sx={{ whiteSpace: 'nowrap', maxWidth: 360, mx: 'auto' }}
    >
      {actions.map((action) => (
        <span key={action}>{button(action)}</span>
      ))}
    </Stack>
  );
};
