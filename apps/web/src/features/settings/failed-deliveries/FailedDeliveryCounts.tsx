import { Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useFailedDeliveryCounts } from './useFailedDeliveries';

/** Super user: how many failed deliveries each company has (never their contents). */
export const FailedDeliveryCounts = () => {
  const { t } = useTranslation();
  const counts = useFailedDeliveryCounts(true);
  const companies = counts.data?.companies ?? [];

  return (
    <TableContainer component={Paper} variant="outlined" data-testid="failed-delivery-counts">
      <Typography variant="subtitle1" sx={{ px: 2, pt: 1 }}>
        {t('settings.failedDeliveries.countsTitle')}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t('settings.failedDeliveries.company')}</TableCell>
            <TableCell align="right">{t('settings.failedDeliveries.count')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {companies.map((c) => (
            <TableRow key={c.companyId}>
              <TableCell>{c.name}</TableCell>
              <TableCell align="right">{c.count}</TableCell>
            </TableRow>
          ))}
          {!counts.isLoading && companies.length === 0 && (
            <TableRow>
              <TableCell colSpan={2} align="center">
                {t('settings.failedDeliveries.noCounts')}
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
};
