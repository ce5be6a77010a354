import { FULL_HEIGHT } from '../../app/layout/AppLayout';
import QrCodeScanner from '@mui/icons-material/QrCodeScanner';
import { Alert, Box, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { Link as RouterLink } from 'react-router';
import { api } from '../../api/http';
import { toast, toastError } from '../../components/toast';
import { ConnectionStatus } from '../connections/ConnectionStatus';
import '../connections/i18n';
import { QrCode } from '../connections/qr/QrCode';
import { useConnections } from '../connections/useConnections';
import './i18n';
import { SimulatorWorkspace } from './SimulatorWorkspace';

const SELECTED_KEY = 'zelo.simulator.connection';

/** /simulator (admins): play customers of a sandbox connection — send every message type, see the replies. */
const SimulatorPage = () => {
  const { t } = useTranslation();
  const { data: connections = [], isLoading } = useConnections();
  const sandboxes = connections.filter((c) => c.provider === 'sandbox');
  const [connectionId, setConnectionId] = useState<number | null>(() => {
    const stored = typeof localStorage === 'undefined' ? null : Number(localStorage.getItem(SELECTED_KEY));

    return stored || null;
  });
  const [scanning, setScanning] = useState(false);

  // the stored choice when it still exists, else the first sandbox connection
  useEffect(() => {
    if (isLoading) {
      return;
    }
    if (!sandboxes.some((c) => c.id === connectionId)) {
      setConnectionId(sandboxes[0]?.id ?? null);
    }
  }, [isLoading, sandboxes, connectionId]);

  useEffect(() => {
    if (connectionId) {
      localStorage.setItem(SELECTED_KEY, String(connectionId));
    }
  }, [connectionId]);

  const connection = sandboxes.find((c) => c.id === connectionId) ?? null;

  const scan = async () => {
    if (!connection) {
      return;
    }
    setScanning(true);
    try {
      await api.post(`/sandbox/${connection.id}/scan`, {});
      toast.success(t('connections.qr.scanned'));
    } catch (err) {
      toastError(err);
    } finally {
      setScanning(false);
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: FULL_HEIGHT, minHeight: 420, p: 2, gap: 2 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="h5" component="h1">
            {t('simulator.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('simulator.subtitle')}
          </Typography>
        </Box>
        <TextField
          select
          size="small"
          label={t('simulator.connection')}
          value={connection ? String(connection.id) : ''}
          onChange={(e) => setConnectionId(Number(e.target.value) || null)}
          sx={{ minWidth: 240 }}
          disabled={sandboxes.length === 0}
          slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'sim-connection' } }}
        >
          {sandboxes.length === 0 && <option value="">{t('simulator.noConnections')}</option>}
          {sandboxes.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.name}
            </option>
          ))}
        </TextField>
        {connection && (
          <Stack direction="row" spacing={1.5} alignItems="center">
            <ConnectionStatus status={connection.status} testId="sim-connection-status" />
            {connection.status === 'qrcode' && (
              <Button
                variant="contained"
                size="small"
                startIcon={scanning ? <CircularProgress size={14} color="inherit" /> : <QrCodeScanner />}
                disabled={scanning}
                onClick={() => void scan()}
                data-testid="sim-scan"
              >
                {t('simulator.scan')}
              </Button>
            )}
          </Stack>
        )}
      </Stack>

      {isLoading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress />
        </Box>
      ) : !connection ? (
        <Alert
          severity="info"
          action={
            <Button component={RouterLink} to="/connections" color="inherit" size="small">
              {t('simulator.goToConnections')}
            </Button>
          }
          data-testid="sim-no-connection"
        >
          {t('simulator.noConnectionsHelp')}
        </Alert>
      ) : (
        <>
          {connection.status !== 'CONNECTED' && (
            <Alert
              severity={connection.status === 'qrcode' ? 'info' : 'warning'}
              icon={false}
              data-testid="sim-not-connected"
            >
              <Stack direction="row" spacing={2} alignItems="center">
                {connection.status === 'qrcode' && connection.qrcode ? (
                  <QrCode value={connection.qrcode} size={96} label={t('connections.qr.alt')} />
                ) : null}
                <Typography variant="body2">
                  {connection.status === 'qrcode' ? t('simulator.qrHelp') : t('simulator.notConnectedHelp')}
                </Typography>
              </Stack>
            </Alert>
          )}
          <SimulatorWorkspace
            key={connection.id}
            connectionId={connection.id}
            connected={connection.status === 'CONNECTED'}
          />
        </>
      )}
    </Box>
  );
};

export default SimulatorPage;
