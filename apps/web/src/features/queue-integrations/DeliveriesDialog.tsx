import {
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { TDeliveryStatus, TQueueIntegration } from '@zelo/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/useTranslation';
import './i18n';
import { fetchDeliveries } from './useQueueIntegrations';

const COLOR: Record<TDeliveryStatus, 'success' | 'warning' | 'error'> = {
  delivered: 'success',
  pending: 'warning',
  failed: 'error',
};

/** how often an open delivery log is read again */
export const DELIVERIES_REFRESH_MS = 5_000;

/** The delivery log of an n8n / webhook integration, newest first, page by page, kept current while open. */
export const DeliveriesDialog = ({ integration, onClose }: { integration: TQueueIntegration; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const query = useInfiniteQuery({
    queryKey: ['queue-integrations', 'deliveries', integration.id],
    queryFn: ({ pageParam }) => fetchDeliveries(integration.id, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    // while open the log follows the deliveries and their retries (every loaded page read again)
    refetchInterval: DELIVERIES_REFRESH_MS,
  });
  const rows = query.data?.pages.flatMap((p) => p.deliveries) ?? [];
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="integration-deliveries-dialog">
      <DialogTitle>{t('queueIntegrations.log.title', { name: integration.name })}</DialogTitle>
      <DialogContent dividers>
        {rows.length === 0 && !query.isLoading ? (
          <Typography color="text.secondary" data-testid="integration-deliveries-empty">
            {t('queueIntegrations.log.empty')}
          </Typography>
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('queueIntegrations.log.when')}</TableCell>
                <TableCell>{t('queueIntegrations.log.ticket')}</TableCell>
                <TableCell>{t('queueIntegrations.log.status')}</TableCell>
                <TableCell align="right">{t('queueIntegrations.log.attempts')}</TableCell>
                <TableCell>{t('queueIntegrations.log.answer')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((d) => (
                <TableRow key={d.id} data-testid={`integration-delivery-${d.id}`}>
                  <TableCell title={d.deliveryId}>{when(d.createdAt)}</TableCell>
                  <TableCell>{d.ticketId ?? '—'}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={COLOR[d.status]}
                      variant="outlined"
                      label={t(`queueIntegrations.log.statuses.${d.status}`)}
                    />
                  </TableCell>
                  <TableCell align="right">{d.attempts}</TableCell>
                  <TableCell>
                    <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
                      {d.lastError ?? (d.lastStatus ? `HTTP ${d.lastStatus}` : '—')}
                    </Typography>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        {query.hasNextPage && (
          <Button onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {t('queueIntegrations.log.more')}
          </Button>
        )}
        <Button onClick={onClose} color="inherit">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
