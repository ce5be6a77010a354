import { Stack, Typography } from '@mui/material';
import { useTranslation } from '../../../i18n/useTranslation';
import { DataTable } from '../../../components/kit';
import { useFailedDeliveryCounts } from './useFailedDeliveries';

type TCount = { companyId: number; name: string; count: number };

/** Super user: how many failed deliveries each company has (never their contents). */
export const FailedDeliveryCounts = () => {
  const { t } = useTranslation();
  const counts = useFailedDeliveryCounts(true);

  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1">{t('settings.failedDeliveries.countsTitle')}</Typography>
      <DataTable<TCount>
        rows={counts.data?.companies ?? []}
        columns={[
          { key: 'name', header: t('settings.failedDeliveries.company'), render: (c) => c.name, primary: true },
          { key: 'count', header: t('settings.failedDeliveries.count'), align: 'right', render: (c) => c.count },
        ]}
        getRowId={(c) => c.companyId}
        isLoading={counts.isLoading}
        hasMore={false}
        onLoadMore={() => undefined}
        emptyText={t('settings.failedDeliveries.noCounts')}
        testId="failed-delivery-counts"
        sx={{ minHeight: 0, maxHeight: 320 }}
      />
    </Stack>
  );
};
