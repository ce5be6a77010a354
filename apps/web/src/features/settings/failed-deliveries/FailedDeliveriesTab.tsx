import { DeleteOutline, Replay } from '@mui/icons-material';
import { Alert, Box, Stack, Typography } from '@mui/material';
import { events, type TFailedDelivery } from '@zelo/shared';
import { useTranslation } from '../../../i18n/useTranslation';
import { useSocketEvent } from '../../../api/socket';
import { useAuth } from '../../../app/auth/AuthContext';
import { ActionButton, DataTable, type TColumn, useDeleteConfirm } from '../../../components/kit';
import { toast, toastError } from '../../../components/toast';
import { FailedDeliveryCounts } from './FailedDeliveryCounts';
import {
  useDiscardFailedDelivery,
  useFailedDeliveries,
  useRefreshFailedDeliveries,
  useRetryFailedDelivery,
} from './useFailedDeliveries';

/**
 * Settings → failed deliveries (admins): what a channel delivered and the inbox could not process after its
 * retries, with the error; Retry processes it again now, Discard drops it. A super user also sees the
 * counts of every company.
 */
export const FailedDeliveriesTab = () => {
  const { t, i18n } = useTranslation();
  const { user, isSuper } = useAuth();
  const list = useFailedDeliveries();
  const refresh = useRefreshFailedDeliveries();
  const retry = useRetryFailedDelivery();
  const discard = useDiscardFailedDelivery();
  const confirmDiscard = useDeleteConfirm<TFailedDelivery>({
    onDelete: (delivery) => discard.mutateAsync(delivery.id),
    title: () => t('settings.failedDeliveries.discardTitle'),
    message: () => t('settings.failedDeliveries.discardMessage'),
    successMessage: t('settings.failedDeliveries.discarded'),
  });
  useSocketEvent(user ? events.failedDelivery(user.companyId) : '', () => void refresh());

  const when = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'medium' }) : '—';

  const onRetry = async (delivery: TFailedDelivery) => {
    try {
      const result = await retry.mutateAsync(delivery.id);
      if (result.processed) {
        toast.success(t('settings.failedDeliveries.retried'));
      } else {
        toast.error(t('settings.failedDeliveries.failedAgain', { error: result.error ?? '' }));
      }
    } catch (err) {
      toastError(err);
    }
  };

  const columns: TColumn<TFailedDelivery>[] = [
    {
      key: 'receivedAt',
      header: t('settings.failedDeliveries.receivedAt'),
      primary: true,
      render: (d) => (
        <Box component="span" sx={{ whiteSpace: { sm: 'nowrap' } }}>
          {when(d.receivedAt)}
          <Typography variant="caption" display="block" color="text.secondary">
            {t('settings.failedDeliveries.lastAttempt', { when: when(d.lastAttemptAt) })}
          </Typography>
        </Box>
      ),
    },
    {
      key: 'connection',
      header: t('settings.failedDeliveries.connection'),
      render: (d) => d.whatsappName ?? `#${d.whatsappId}`,
    },
    {
      key: 'preview',
      header: t('settings.failedDeliveries.preview'),
      render: (d) => (
        <Box
          component="span"
          sx={{
            display: 'block',
            maxWidth: 320,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: { sm: 'nowrap' },
          }}
        >
          {d.preview}
        </Box>
      ),
    },
    {
      key: 'error',
      header: t('settings.failedDeliveries.error'),
      render: (d) => (
        <Box component="span" sx={{ display: 'block', maxWidth: 320, wordBreak: 'break-word' }}>
          {d.lastError ?? '—'}
        </Box>
      ),
    },
    { key: 'attempts', header: t('settings.failedDeliveries.attempts'), align: 'center', render: (d) => d.attempts },
  ];

  return (
    <Stack spacing={2}>
      {isSuper && <FailedDeliveryCounts />}
      <Alert severity="info">{t('settings.failedDeliveries.explain')}</Alert>
      <DataTable
        rows={list.items}
        columns={columns}
        getRowId={(d) => d.id}
        rowTestId={(d) => `failed-delivery-${d.id}`}
        actions={(d) => (
          <>
            <ActionButton
              label={t('settings.failedDeliveries.retry')}
              icon={<Replay fontSize="small" />}
              onClick={() => void onRetry(d)}
              disabled={retry.isPending}
              testId={`failed-delivery-retry-${d.id}`}
            />
            <ActionButton
              label={t('settings.failedDeliveries.discard')}
              icon={<DeleteOutline fontSize="small" />}
              onClick={() => confirmDiscard.ask(d)}
              testId={`failed-delivery-discard-${d.id}`}
            />
          </>
        )}
        isLoading={list.isLoading}
        hasMore={list.hasMore}
        onLoadMore={list.loadMore}
        emptyText={t('settings.failedDeliveries.empty')}
        testId="failed-deliveries"
      />
      {confirmDiscard.dialog}
    </Stack>
  );
};
