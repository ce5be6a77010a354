import { Box, Button, DialogActions, DialogContent } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { TConnection } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { toast, toastError } from '../../components/toast';
import { QrCode } from './qr/QrCode';
import { PhoneSteps, SessionDialog, SessionWaiting } from './SessionDialog';
import { useSessionUpdates } from './useSessionUpdates';

type TQrCodeDialogProps = {
  /** the connection whose QR is shown; null: closed */
  connection: TConnection | null;
  onClose: () => void;
};

/**
 * The pairing QR code of a connection. Closes itself when a session update for it arrives with an empty
 * qrcode (paired, or the QR expired). Sandbox connections can be "scanned" by the customer simulator.
 */
export const QrCodeDialog = ({ connection, onClose }: TQrCodeDialogProps) => {
  const { t } = useTranslation();
  const id = connection?.id ?? null;
  const [liveQr, setLiveQr] = useState<{ id: number; qrcode: string } | null>(null);
  const [scanning, setScanning] = useState(false);

  // the current QR (GET /whatsapp/:id without session=0 answers the qrcode)
  const fetched = useQuery({
    queryKey: ['connections', 'qrcode', id],
    queryFn: () => api.get<TConnection>(`/whatsapp/${id}`),
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
  });

  useSessionUpdates(id, (session) => {
    // while PAIRING (Baileys by phone number) the qrcode field holds the pairing code, not a QR
    if (session.qrcode && session.status !== 'PAIRING') {
      setLiveQr({ id: session.id, qrcode: session.qrcode });
    } else {
      setLiveQr(null);
      onClose();
    }
  });

  const stored = (c: TConnection | null | undefined) => (c && c.status !== 'PAIRING' ? c.qrcode : '');
  const qrcode = (liveQr && liveQr.id === id ? liveQr.qrcode : '') || stored(fetched.data) || stored(connection) || '';

  const scan = async () => {
    if (id === null) {
      return;
    }
    setScanning(true);
    try {
      await api.post(`/sandbox/${id}/scan`, {});
      toast.success(t('connections.qr.scanned'));
    } catch (err) {
      toastError(err);
    } finally {
      setScanning(false);
    }
  };

  return (
    <SessionDialog
      way="qr"
      connection={connection}
      open={connection?.provider !== 'cloud-api'}
      onClose={onClose}
      testId="qr-dialog"
    >
      <DialogContent dividers>
        <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 3, alignItems: 'center' }}>
          <Box sx={{ flex: 1 }}>
            <PhoneSteps way="qr" />
          </Box>
          <Box sx={{ width: 256, height: 256, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
            {qrcode ? (
              <QrCode value={qrcode} size={256} testId="qr-code" label={t('connections.qr.alt')} />
            ) : (
              <SessionWaiting way="qr" />
            )}
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        {connection?.provider === 'sandbox' && (
          <Button
            variant="contained"
            onClick={() => void scan()}
            disabled={scanning || !qrcode}
            data-testid="qr-scan-simulator"
          >
            {t('connections.qr.scanWithSimulator')}
          </Button>
        )}
        <Button onClick={onClose} color="inherit" data-testid="qr-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </SessionDialog>
  );
};
