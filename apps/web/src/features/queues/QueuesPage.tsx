import { Chip, Typography } from '@mui/material';
import type { TQueue } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { DataTable, ListPage, RowActions, type TColumn, useDeleteConfirm } from '../../components/kit';
import { settingValue } from '../settings/settingsCache';
import { useSettings } from '../settings/useSettings';
import '../assignment/i18n';
import './i18n';
import { QueueDialog } from './QueueDialog';
import { QUEUE_COLOR_PALETTE, textOn } from './queueColors';
import { firstFreeColor } from './queueForm';
import { useQueues } from './useQueues';

/** /queues (admin): the company's queues in menu order, live, with add, edit (data, hours, options) and delete. */
const QueuesPage = () => {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<TQueue | null | undefined>(undefined);
  const queues = useQueues();
  const { data: settings } = useSettings();
  const hasQueueHours = settingValue(settings, 'scheduleType') === 'queue';
  const remove = useDeleteConfirm<TQueue>({
    onDelete: (queue) => queues.remove(queue.id),
    title: (queue) => t('queues.deleteTitle', { name: queue.name }),
    message: () => t('queues.deleteMessage'),
    successMessage: t('queues.deleted'),
  });

  const columns: TColumn<TQueue>[] = [
    { key: 'name', header: t('queues.columns.name'), render: (queue) => queue.name, primary: true },
    {
      key: 'color',
      header: t('queues.columns.color'),
      align: 'center',
      render: (queue) => (
        <Chip
          size="small"
          label={queue.color}
          sx={{ bgcolor: queue.color, color: textOn(queue.color), fontFamily: 'monospace' }}
        />
      ),
    },
    {
      key: 'order',
      header: t('queues.columns.order'),
      align: 'center',
      render: (queue) => queue.orderQueue ?? t('queues.noOrder'),
    },
    {
      key: 'autoAssign',
      header: t('assignment.queue.title'),
      align: 'center',
      render: (queue) =>
        queue.autoAssign ? (
          <Chip
            size="small"
            color="success"
            variant="outlined"
            label={`${t('assignment.queue.on')} · ${queue.autoAssignMax}`}
            title={t('assignment.queue.max')}
            data-testid={`queue-auto-${queue.name}`}
          />
        ) : (
          '—'
        ),
    },
    {
      key: 'greeting',
      header: t('queues.columns.greeting'),
      render: (queue) => (
        <Typography
          variant="body2"
          title={queue.greetingMessage}
          sx={{ maxWidth: { sm: 360 }, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {queue.greetingMessage}
        </Typography>
      ),
    },
  ];

  return (
    <ListPage
      title={t('queues.title')}
      add={{ label: t('queues.add'), onClick: () => setEditing(null), testId: 'queues-add' }}
    >
      <DataTable
        rows={queues.items}
        columns={columns}
        getRowId={(queue) => queue.id}
        rowTestId={(queue) => `queue-row-${queue.name}`}
        actions={(queue) => (
          <RowActions
            onEdit={() => setEditing(queue)}
            onDelete={() => remove.ask(queue)}
            editTestId={`queue-edit-${queue.name}`}
            deleteTestId={`queue-delete-${queue.name}`}
          />
        )}
        isLoading={queues.isLoading}
        hasMore={false}
        onLoadMore={() => undefined}
        emptyText={t('queues.empty')}
        testId="queues-table"
      />
      <QueueDialog
        open={editing !== undefined}
        queue={editing ?? null}
        hasQueueHours={hasQueueHours}
        defaultColor={firstFreeColor(
          QUEUE_COLOR_PALETTE,
          queues.items.map((q) => q.color),
        )}
        onSave={queues.save}
        onClose={() => setEditing(undefined)}
      />
      {remove.dialog}
    </ListPage>
  );
};

export default QueuesPage;
