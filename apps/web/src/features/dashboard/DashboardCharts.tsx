import { Box, Button, Paper, Stack, TextField, Typography, useTheme } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { toast } from '../../components/toast';
import { isoDay } from './format';
import { type TChartRange, useTicketsDay, useTicketsUsers } from './useDashboard';

const CHART_HEIGHT = 280;

/** the two dates and the filter button of one chart; the range applies on Filter */
const RangePicker = ({ testId, onApply }: { testId: string; onApply: (range: TChartRange) => void }) => {
  const { t } = useTranslation();
  const today = isoDay(new Date());
  const [range, setRange] = useState<TChartRange>({ initialDate: today, finalDate: today });

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ my: 2 }} alignItems={{ sm: 'center' }}>
      <TextField
        type="date"
        size="small"
        label={t('dashboard.initialDate')}
        value={range.initialDate}
        onChange={(e) => setRange((r) => ({ ...r, initialDate: e.target.value }))}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `${testId}-from` } }}
      />
      <TextField
        type="date"
        size="small"
        label={t('dashboard.finalDate')}
        value={range.finalDate}
        onChange={(e) => setRange((r) => ({ ...r, finalDate: e.target.value }))}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `${testId}-to` } }}
      />
      <Button variant="contained" data-testid={`${testId}-filter`} onClick={() => onApply(range)}>
        {t('dashboard.filter')}
      </Button>
    </Stack>
  );
};

const useToday = (): TChartRange => {
  const today = isoDay(new Date());

  return { initialDate: today, finalDate: today };
};

/** spec 1 §2: tickets per attendant, with its own range */
export const TicketsUsersChart = () => {
  const { t } = useTranslation();
  const theme = useTheme();
  const [range, setRange] = useState(useToday);
  const query = useTicketsUsers(range);
  useEffect(() => {
    if (query.isError) toast.error(t('dashboard.charts.userError'));
  }, [query.isError, t]);
  const rows = query.data?.data ?? [];

  return (
    <Paper sx={{ p: 2 }} data-testid="chart-users">
      <Typography component="h2" variant="h6" color="primary">
        {t('dashboard.charts.users')} ({query.data?.count ?? 0})
      </Typography>
      <RangePicker testId="chart-users" onApply={setRange} />
      <Box sx={{ width: '100%', minWidth: 0 }}>
        {rows.length > 0 ? (
          <BarChart
            height={CHART_HEIGHT}
            xAxis={[{ scaleType: 'band', data: rows.map((r) => r.nome) }]}
            yAxis={[{ tickMinStep: 1, width: 36 }]}
            series={[
              {
                data: rows.map((r) => r.quantidade),
                label: t('dashboard.charts.tickets'),
                color: theme.palette.primary.main,
              },
            ]}
            hideLegend
          />
        ) : (
          <Typography color="text.secondary">{t('dashboard.charts.empty')}</Typography>
        )}
      </Box>
    </Paper>
  );
};

/** spec 1 §2: tickets per day, or per hour for a single day, with its own range */
export const TicketsDayChart = () => {
  const { t } = useTranslation();
  const theme = useTheme();
  const [range, setRange] = useState(useToday);
  const query = useTicketsDay(range);
  useEffect(() => {
    if (query.isError) toast.error(t('dashboard.charts.dateError'));
  }, [query.isError, t]);
  const rows = query.data?.data ?? [];
  const labels = rows.map((r) =>
    'horario' in r ? `${String(r.horario).padStart(2, '0')}h` : (r as { data: string }).data.slice(0, 5),
  );
  const full = rows.map((r) =>
    'horario' in r
      ? t('dashboard.charts.hour', { hour: String(r.horario).padStart(2, '0') })
      : (r as { data: string }).data,
  );
  const series = [
    {
      data: rows.map((r) => r.total),
      label: t('dashboard.charts.tickets'),
      color: theme.palette.secondary.main,
    },
  ];

  return (
    <Paper sx={{ p: 2 }} data-testid="chart-day">
      <Typography component="h2" variant="h6" color="primary">
        {t('dashboard.charts.day')} ({query.data?.count ?? 0})
      </Typography>
      <RangePicker testId="chart-day" onApply={setRange} />
      <Box sx={{ width: '100%', minWidth: 0 }}>
        {rows.length <= 24 ? (
          <BarChart
            height={CHART_HEIGHT}
            xAxis={[
              {
                scaleType: 'band',
                data: labels,
                valueFormatter: (_v, ctx) => (ctx.location === 'tooltip' ? full[labels.indexOf(_v)] : _v),
              },
            ]}
            yAxis={[{ tickMinStep: 1, width: 36 }]}
            series={series}
            hideLegend
          />
        ) : (
          <LineChart
            height={CHART_HEIGHT}
            xAxis={[
              {
                scaleType: 'point',
                data: labels,
                valueFormatter: (_v, ctx) => (ctx.location === 'tooltip' ? full[labels.indexOf(_v)] : _v),
              },
            ]}
            yAxis={[{ tickMinStep: 1, width: 36 }]}
            series={[{ ...series[0], showMark: false, area: true }]}
            hideLegend
          />
        )}
      </Box>
    </Paper>
  );
};
