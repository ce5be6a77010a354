import { AccountTree, Hub, ReceiptLong, SmartToy, Webhook } from '@mui/icons-material';
import { Avatar, Stack, Typography } from '@mui/material';
import type { TIntegrationType, TQueueIntegration } from '@zelo/shared';
import { type ReactNode, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import {
  ActionButton,
  DataTable,
  ListPage,
  RowActions,
  type TColumn,
  useDeleteConfirm,
  useEditDialog,
  useSearch,
} from '../../components/kit';
import { DeliveriesDialog } from './DeliveriesDialog';
import './i18n';
import { QueueIntegrationDialog } from './QueueIntegrationDialog';
import { useQueueIntegrationsList } from './useQueueIntegrations';

/** the type's logo: an icon in a coloured disc (the ancestor's bundled logos are not redistributed) */
const LOGO: Record<TIntegrationType, { icon: ReactNode; color: string }> = {
  dialogflow: { icon: <SmartToy fontSize="small" />, color: '#FF9800' },
  n8n: { icon: <Hub fontSize="small" />, color: '#EA4B71' },
  webhook: { icon: <Webhook fontSize="small" />, color: '#607D8B' },
  typebot: { icon: <SmartToy fontSize="small" />, color: '#0042DA' },
  flowbuilder: { icon: <AccountTree fontSize="small" />, color: '#2E7D32' },
};

/**
 * /queue-integration (spec 3 §2.4): the company's integrations, searchable, with add, edit, delete and, for n8n
 * and webhooks, their delivery log; kept live by the company's events. The plan flag is checked by the route.
 */
const QueueIntegrationsPage = () => {
  const { t } = useTranslation();
  const { search, setSearch, searchParam } = useSearch();
  const list = useQueueIntegrationsList(searchParam);
  const dialog = useEditDialog<TQueueIntegration>();
  const [log, setLog] = useState<TQueueIntegration | null>(null);
  const remove = useDeleteConfirm<TQueueIntegration>({
    onDelete: (i) => list.remove(i.id),
    title: (i) => t('queueIntegrations.deleteTitle', { name: i.name }),
    message: () => t('queueIntegrations.deleteMessage'),
    successMessage: t('queueIntegrations.deleted'),
  });

  const columns: TColumn<TQueueIntegration>[] = [
    {
      key: 'type',
      header: t('queueIntegrations.columns.type'),
      width: 72,
      render: (i) => (
        <Avatar
          sx={{ width: 32, height: 32, bgcolor: LOGO[i.type].color, color: '#fff' }}
          title={t(`queueIntegrations.types.${i.type}`)}
          data-testid={`integration-logo-${i.type}`}
        >
          {LOGO[i.type].icon}
        </Avatar>
      ),
    },
    { key: 'id', header: t('queueIntegrations.columns.id'), width: 80, render: (i) => i.id },
    {
      key: 'name',
      header: t('queueIntegrations.columns.name'),
      primary: true,
      render: (i) => (
        <Stack sx={{ minWidth: 0 }}>
          <Typography variant="body2" fontWeight={600} sx={{ wordBreak: 'break-word' }}>
            {i.name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t(`queueIntegrations.types.${i.type}`)}
          </Typography>
        </Stack>
      ),
    },
  ];

  return (
    <ListPage
      title={t('queueIntegrations.title')}
      search={{
        value: search,
        onChange: setSearch,
        placeholder: t('queueIntegrations.search'),
        testId: 'integrations-search',
      }}
      add={{ label: t('queueIntegrations.add'), onClick: () => dialog.open(null), testId: 'integrations-add' }}
    >
      <DataTable
        rows={list.items}
        columns={columns}
        getRowId={(i) => i.id}
        rowTestId={(i) => `integration-row-${i.id}`}
        actions={(i) => (
          <RowActions
            onEdit={() => dialog.open(i)}
            onDelete={() => remove.ask(i)}
            editTestId={`integration-edit-${i.id}`}
            deleteTestId={`integration-delete-${i.id}`}
          >
            {(i.type === 'n8n' || i.type === 'webhook') && (
              <ActionButton
                label={t('queueIntegrations.deliveries')}
                icon={<ReceiptLong fontSize="small" />}
                onClick={() => setLog(i)}
                testId={`integration-deliveries-${i.id}`}
              />
            )}
          </RowActions>
        )}
        isLoading={list.isLoading}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        emptyText={t('queueIntegrations.empty')}
      />
      <QueueIntegrationDialog
        key={dialog.key}
        open={dialog.isOpen}
        integration={dialog.editing ?? null}
        onSaved={list.upsert}
        onClose={dialog.close}
      />
      {log && <DeliveriesDialog integration={log} onClose={() => setLog(null)} />}
      {remove.dialog}
    </ListPage>
  );
};

export default QueueIntegrationsPage;
