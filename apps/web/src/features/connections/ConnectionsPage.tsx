import CheckCircle from '@mui/icons-material/CheckCircle';
import { Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { TConnection } from '@zelo/shared';
import { useCallback, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { DataTable, ListPage, RowActions, type TColumn, useDeleteConfirm } from '../../components/kit';
import { toast } from '../../components/toast';
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

  const remove = useDeleteConfirm<TConnection>({
    onDelete: async (connection) => {
      await api.delete(`/whatsapp/${connection.id}`);
      queryClient.setQueryData<TConnection[]>(CONNECTIONS_QUERY_KEY, (old) => removeConnection(old, connection.id));
    },
    title: (connection) => t('connections.deleteTitle', { name: connection.name }),
    message: () => t('connections.deleteMessage'),
    successMessage: t('connections.deleted'),
  });

  const columns: TColumn<TConnection>[] = [
    {
      key: 'name',
      header: t('connections.columns.name'),
      primary: true,
      render: (connection) => (
        <>
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
        </>
      ),
    },
    {
      key: 'status',
      header: t('connections.columns.status'),
      render: (connection) => (
        <ConnectionStatus
          status={connection.status}
          provider={connection.provider}
          error={connection.lastError}
          testId={`connection-status-${connection.id}`}
        />
      ),
    },
    ...(isAdmin
      ? [
          {
            key: 'session',
            header: t('connections.columns.session'),
            align: 'center' as const,
            render: (connection: TConnection) => (
              <SessionActions
                connection={connection}
                onShowQr={(c) => setQrConnectionId(c.id)}
                onPairByPhone={(c) => setPairingConnectionId(c.id)}
              />
            ),
          },
        ]
      : []),
    {
      key: 'lastUpdate',
      header: t('connections.columns.lastUpdate'),
      align: 'center',
      render: (connection) => formatDateTime(connection.updatedAt),
    },
    {
      key: 'default',
      header: t('connections.columns.default'),
      align: 'center',
      render: (connection) =>
        connection.isDefault ? (
          <CheckCircle
            color="success"
            fontSize="small"
            titleAccess={t('connections.isDefault')}
            data-testid={`connection-default-${connection.id}`}
          />
        ) : null,
    },
  ];

  return (
    <ListPage
      title={t('connections.title')}
      add={
        isAdmin
          ? {
              label: t('connections.add'),
              onClick: () => setDialog({ open: true, id: null }),
              testId: 'connections-add',
            }
          : undefined
      }
    >
      <DataTable
        rows={connections}
        columns={columns}
        getRowId={(connection) => connection.id}
        rowTestId={(connection) => `connection-row-${connection.id}`}
        rowExtras={(connection) => ({ 'data-name': connection.name })}
        actions={
          isAdmin
            ? (connection) => (
                <RowActions
                  onEdit={() => setDialog({ open: true, id: connection.id })}
                  onDelete={() => remove.ask(connection)}
                  editTestId={`connection-edit-${connection.id}`}
                  deleteTestId={`connection-delete-${connection.id}`}
                />
              )
            : undefined
        }
        isLoading={isLoading}
        hasMore={false}
        onLoadMore={() => undefined}
        emptyText={error ? t('connections.loadError') : t('connections.empty')}
        testId="connections"
      />
      <QrCodeDialog key={qrConnectionId ?? 'none'} connection={qrConnection} onClose={closeQr} />
      <PairingDialog
        key={`pairing-${pairingConnectionId ?? 'none'}`}
        connection={pairingConnection}
        onClose={closePairing}
      />
      <ConnectionDialog open={dialog.open} connectionId={dialog.id} onClose={closeDialog} onSaved={onSaved} />
      {remove.dialog}
    </ListPage>
  );
};

export default ConnectionsPage;
