import { DeleteOutline, Replay } from '@mui/icons-material';
import {
  Alert,
  IconButton,
  Pagination,
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
import { events, PAGE_SIZE, type TFailedDelivery } from '@zelo/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../../../api/socket';
import { useAuth } from '../../../app/auth/AuthContext';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
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
  const [pageNumber, setPageNumber] = useState(1);
  const [discarding, setDiscarding] = useState<TFailedDelivery | null>(null);
  const page = useFailedDeliveries(pageNumber);
  const refresh = useRefreshFailedDeliveries();
  const retry = useRetryFailedDelivery();
  const discard = useDiscardFailedDelivery();
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

  const onConfirmDiscard = async () => {
    if (!discarding) {
      return;
    }
    try {
      await discard.mutateAsync(discarding.id);
      toast.success(t('settings.failedDeliveries.discarded'));
    } catch (err) {
      toastError(err);
    }
    setDiscarding(null);
  };

  const rows = page.data?.failedDeliveries ?? [];
  const pages = Math.max(1, Math.ceil((page.data?.count ?? 0) / PAGE_SIZE.default));

  return (
    <Stack spacing={2}>
      {isSuper && <FailedDeliveryCounts />}
      <Alert severity="info">{t('settings.failedDeliveries.explain')}</Alert>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('settings.failedDeliveries.receivedAt')}</TableCell>
              <TableCell>{t('settings.failedDeliveries.connection')}</TableCell>
              <TableCell>{t('settings.failedDeliveries.preview')}</TableCell>
              <TableCell>{t('settings.failedDeliveries.error')}</TableCell>
              <TableCell align="center">{t('settings.failedDeliveries.attempts')}</TableCell>
              <TableCell align="center">{t('settings.helps.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((d) => (
              <TableRow key={d.id} hover data-testid={`failed-delivery-${d.id}`}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {when(d.receivedAt)}
                  <Typography variant="caption" display="block" color="text.secondary">
                    {t('settings.failedDeliveries.lastAttempt', { when: when(d.lastAttemptAt) })}
                  </Typography>
                </TableCell>
                <TableCell>{d.whatsappName ?? `#${d.whatsappId}`}</TableCell>
                <TableCell sx={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {d.preview}
                </TableCell>
                <TableCell sx={{ maxWidth: 320, wordBreak: 'break-word' }}>{d.lastError ?? '—'}</TableCell>
                <TableCell align="center">{d.attempts}</TableCell>
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('settings.failedDeliveries.retry')}>
                    <span>
                      <IconButton
                        size="small"
                        disabled={retry.isPending}
                        onClick={() => void onRetry(d)}
                        data-testid={`failed-delivery-retry-${d.id}`}
                      >
                        <Replay fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                  <Tooltip title={t('settings.failedDeliveries.discard')}>
                    <IconButton
                      size="small"
                      onClick={() => setDiscarding(d)}
                      data-testid={`failed-delivery-discard-${d.id}`}
                    >
                      <DeleteOutline fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
            {!page.isLoading && rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={6} align="center" data-testid="failed-deliveries-empty">
                  {t('settings.failedDeliveries.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {pages > 1 && <Pagination count={pages} page={pageNumber} onChange={(_e, p) => setPageNumber(p)} />}
      <ConfirmDialog
        open={discarding !== null}
        title={t('settings.failedDeliveries.discardTitle')}
        onConfirm={() => void onConfirmDiscard()}
        onClose={() => setDiscarding(null)}
      >
        {t('settings.failedDeliveries.discardMessage')}
      </ConfirmDialog>
    </Stack>
  );
};
