import Add from '@mui/icons-material/Add';
import CheckCircle from '@mui/icons-material/CheckCircle';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Edit from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  CircularProgress,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { TConnection } from '@zelo/shared';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { toast, toastError } from '../../components/toast';
import { ConnectionDialog } from './ConnectionDialog';
import { ConnectionStatus } from './ConnectionStatus';
import { CONNECTIONS_QUERY_KEY, formatDateTime, removeConnection } from './connectionsCache';
import './i18n';
import { PairingDialog } from './PairingDialog';
import { ProviderChip } from './ProviderChip';
import { QrCodeDialog } from './QrCodeDialog';
import { SessionActions } from './SessionActions';
import { useConnections } from './useConnections';

/** /connections: the company's connections with their session actions, QR modal and editor (spec 1 §2). */
const ConnectionsPage = () => {
  const { t } = useTranslation();
  const { isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const { data: connections = [], isLoading, error } = useConnections();
  const [qrConnectionId, setQrConnectionId] = useState<number | null>(null);
  const [pairingConnectionId, setPairingConnectionId] = useState<number | null>(null);
  const [dialog, setDialog] = useState<{ open: boolean; id: number | null }>({ open: false, id: null });
  const [deleting, setDeleting] = useState<TConnection | null>(null);

  const qrConnection = connections.find((c) => c.id === qrConnectionId) ?? null;
  const pairingConnection = connections.find((c) => c.id === pairingConnectionId) ?? null;
  const closeDialog = useCallback(() => setDialog((d) => ({ ...d, open: false })), []);
  const closeQr = useCallback(() => setQrConnectionId(null), []);
  const closePairing = useCallback(() => setPairingConnectionId(null), []);
  // a new Cloud API connection stays in the editor, now with its webhook URL to paste into Meta's app
  const onSaved = useCallback(
    (saved: TConnection, created: boolean) => {
      if (created && saved.provider === 'cloud-api') {
        setDialog({ open: true, id: saved.id });
        toast.info(t('connections.form.cloud.nextStep'));
      } else {
        closeDialog();
      }
    },
    [closeDialog, t],
  );

  const onConfirmDelete = async () => {
    if (!deleting) {
      return;
    }
    const { id } = deleting;
    setDeleting(null);
    try {
      await api.delete(`/whatsapp/${id}`);
      queryClient.setQueryData<TConnection[]>(CONNECTIONS_QUERY_KEY, (old) => removeConnection(old, id));
      toast.success(t('connections.deleted'));
    } catch (err) {
      toastError(err);
    }
  };

  const columns = isAdmin ? 6 : 4;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, p: 2, gap: 2 }}>
      <Stack direction="row" spacing={2} alignItems="center">
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('connections.title')}
        </Typography>
        {isAdmin && (
          <Button
            variant="contained"
            startIcon={<Add />}
            onClick={() => setDialog({ open: true, id: null })}
            data-testid="connections-add"
          >
            {t('connections.add')}
          </Button>
        )}
      </Stack>
      <TableContainer component={Paper} variant="outlined" sx={{ flex: 1, minHeight: 200 }}>
        <Table stickyHeader size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('connections.columns.name')}</TableCell>
              <TableCell>{t('connections.columns.status')}</TableCell>
              {isAdmin && <TableCell align="center">{t('connections.columns.session')}</TableCell>}
              <TableCell align="center">{t('connections.columns.lastUpdate')}</TableCell>
              <TableCell align="center">{t('connections.columns.default')}</TableCell>
              {isAdmin && <TableCell align="center">{t('connections.columns.actions')}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {connections.map((connection) => (
              <TableRow
                key={connection.id}
                hover
                data-testid={`connection-row-${connection.id}`}
                data-name={connection.name}
              >
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {connection.name}
                  </Typography>
                  <Stack direction="row" spacing={1} alignItems="center" sx={{ mt: 0.5 }}>
                    <ProviderChip provider={connection.provider} testId={`connection-provider-${connection.id}`} />
                    {connection.phoneNumber ? (
                      <Typography variant="caption" color="text.secondary">
                        +{connection.phoneNumber}
                      </Typography>
                    ) : null}
                  </Stack>
                </TableCell>
                <TableCell>
                  <ConnectionStatus
                    status={connection.status}
                    provider={connection.provider}
                    error={connection.lastError}
                    testId={`connection-status-${connection.id}`}
                  />
                </TableCell>
                {isAdmin && (
                  <TableCell align="center">
                    <SessionActions
                      connection={connection}
                      onShowQr={(c) => setQrConnectionId(c.id)}
                      onPairByPhone={(c) => setPairingConnectionId(c.id)}
                    />
                  </TableCell>
                )}
                <TableCell align="center">{formatDateTime(connection.updatedAt)}</TableCell>
                <TableCell align="center">
                  {connection.isDefault ? (
                    <CheckCircle
                      color="success"
                      fontSize="small"
                      titleAccess={t('connections.isDefault')}
                      data-testid={`connection-default-${connection.id}`}
                    />
                  ) : null}
                </TableCell>
                {isAdmin && (
                  <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('connections.edit')}>
                      <IconButton
                        size="small"
                        onClick={() => setDialog({ open: true, id: connection.id })}
                        data-testid={`connection-edit-${connection.id}`}
                      >
                        <Edit fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('connections.delete')}>
                      <IconButton
                        size="small"
                        onClick={() => setDeleting(connection)}
                        data-testid={`connection-delete-${connection.id}`}
                      >
                        <DeleteOutline fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
            {isLoading && (
              <TableRow>
                <TableCell colSpan={columns} align="center">
                  <CircularProgress size={24} aria-label={t('common.loading')} />
                </TableCell>
              </TableRow>
            )}
            {!isLoading && connections.length === 0 && (
              <TableRow>
                <TableCell
                  colSpan={columns}
                  align="center"
                  sx={{ color: 'text.secondary', py: 4 }}
                  data-testid="connections-empty"
                >
                  {error ? t('connections.loadError') : t('connections.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <QrCodeDialog key={qrConnectionId ?? 'none'} connection={qrConnection} onClose={closeQr} />
      <PairingDialog
        key={`pairing-${pairingConnectionId ?? 'none'}`}
        connection={pairingConnection}
        onClose={closePairing}
      />
      <ConnectionDialog open={dialog.open} connectionId={dialog.id} onClose={closeDialog} onSaved={onSaved} />
      <ConfirmDialog
        open={deleting !== null}
        title={t('connections.deleteTitle', { name: deleting?.name ?? '' })}
        onConfirm={() => void onConfirmDelete()}
        onClose={() => setDeleting(null)}
      >
        {t('connections.deleteMessage')}
      </ConfirmDialog>
    </Box>
  );
};

export default ConnectionsPage;
