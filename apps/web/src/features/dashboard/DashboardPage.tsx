import {
  AccessTime,
  CheckCircle,
  Circle,
  Forum,
  HourglassEmpty,
  PersonAdd,
  Star,
  StarBorder,
  Timer,
} from '@mui/icons-material';
import {
  Box,
  Button,
  FormControl,
  FormHelperText,
  Grid,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { DASHBOARD_PERIODS, type TDashboardAttendant, type TDashboardCounters } from '@zelo/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { DataTable, type TColumn } from '../../components/kit';
import { toast } from '../../components/toast';
import { TicketsDayChart, TicketsUsersChart } from './DashboardCharts';
import { dashboardParams, formatMinutes, isoDay, type TDashboardFilter } from './format';
import './i18n';
import { useDashboardData, useDashboardRefresh } from './useDashboard';

type TCounterKey = keyof TDashboardCounters;

const COUNTERS: { key: TCounterKey; icon: ReactNode; color: string; duration?: boolean }[] = [
  { key: 'supportHappening', icon: <Forum />, color: 'primary.main' },
  { key: 'supportPending', icon: <HourglassEmpty />, color: 'warning.main' },
  { key: 'supportFinished', icon: <CheckCircle />, color: 'success.main' },
  { key: 'leads', icon: <PersonAdd />, color: 'info.main' },
  { key: 'avgSupportTime', icon: <AccessTime />, color: 'secondary.main', duration: true },
  { key: 'avgWaitTime', icon: <Timer />, color: 'error.main', duration: true },
];

const CounterCard = ({
  label,
  value,
  icon,
  color,
  testId,
}: {
  label: string;
  value: string;
  icon: ReactNode;
  color: string;
  testId: string;
}) => (
  <Paper sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 2, height: '100%' }}>
    <Box sx={{ color, display: 'flex', '& svg': { fontSize: 40 } }}>{icon}</Box>
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary" noWrap>
        {label}
      </Typography>
      <Typography variant="h5" fontWeight={600} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  </Paper>
);

/** a rating out of 3 as stars (halves rounded) */
const Stars = ({ value }: { value: number }) => {
  const { t } = useTranslation();
  const full = Math.round(Math.min(3, Math.max(0, value)));

  return (
    <Tooltip title={t('dashboard.attendants.stars', { value: value.toFixed(1) })}>
      <Box component="span" sx={{ color: 'warning.main', display: 'inline-flex' }} data-rating={full}>
        {[1, 2, 3].map((n) =>
          n <= full ? <Star key={n} fontSize="small" /> : <StarBorder key={n} fontSize="small" />,
        )}
      </Box>
    </Tooltip>
  );
};

const firstOfMonth = () => {
  const now = new Date();

  return isoDay(new Date(now.getFullYear(), now.getMonth(), 1));
};

/** `/` (admins): counters and attendants of a period or date range, and the two charts (spec 1 §2). */
const DashboardPage = () => {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<TDashboardFilter>(() => ({
    kind: 'date',
    from: firstOfMonth(),
    to: isoDay(new Date()),
  }));
  const [applied, setApplied] = useState<Record<string, string> | null>(() => dashboardParams(draft));
  const [missing, setMissing] = useState(false);
  const query = useDashboardData(applied);
  useDashboardRefresh();
  useEffect(() => {
    if (query.isError) toast.error(t('dashboard.loadError'));
  }, [query.isError, t]);

  const apply = () => {
    const params = dashboardParams(draft);
    setMissing(params === null);
    if (params === null) {
      toast.error(t('dashboard.selectFilter'));
      return;
    }
    setApplied(params);
  };

  const counters = query.data?.counters;
  const attendants = query.data?.attendants ?? [];
  const online = attendants.filter((a) => a.online).length;

  const columns: TColumn<TDashboardAttendant>[] = [
    { key: 'name', header: t('dashboard.attendants.name'), primary: true, render: (a) => a.name },
    {
      key: 'rating',
      header: t('dashboard.attendants.rating'),
      align: 'center',
      render: (a) => <Stars value={a.rating} />,
    },
    { key: 'tickets', header: t('dashboard.attendants.tickets'), align: 'center', render: (a) => a.tickets },
    {
      key: 'avgSupportTime',
      header: t('dashboard.attendants.avgSupportTime'),
      align: 'center',
      render: (a) => formatMinutes(a.avgSupportTime),
    },
    {
      key: 'online',
      header: t('dashboard.attendants.status'),
      align: 'center',
      render: (a) => (
        <Stack direction="row" spacing={0.5} alignItems="center" justifyContent="center" component="span">
          <Circle sx={{ fontSize: 12, color: a.online ? 'success.main' : 'text.disabled' }} data-online={a.online} />
          <span>{a.online ? t('dashboard.attendants.online') : t('dashboard.attendants.offline')}</span>
        </Stack>
      ),
    },
  ];

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="dashboard">
      <Typography variant="h5" component="h1">
        {t('dashboard.title')}
      </Typography>

      <Paper sx={{ p: 2 }}>
        <Grid container spacing={2} alignItems="flex-start">
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <FormControl fullWidth size="small">
              <InputLabel id="dashboard-filter-type">{t('dashboard.filterType.title')}</InputLabel>
              <Select
                labelId="dashboard-filter-type"
                label={t('dashboard.filterType.title')}
                value={draft.kind}
                data-testid="dashboard-filter-type"
                onChange={(e) =>
                  setDraft(
                    e.target.value === 'period' ? { kind: 'period', days: 0 } : { kind: 'date', from: '', to: '' },
                  )
                }
              >
                <MenuItem value="date">{t('dashboard.filterType.date')}</MenuItem>
                <MenuItem value="period">{t('dashboard.filterType.period')}</MenuItem>
              </Select>
            </FormControl>
          </Grid>
          {draft.kind === 'period' ? (
            <Grid size={{ xs: 12, sm: 6, md: 3 }}>
              <FormControl fullWidth size="small" error={missing}>
                <InputLabel id="dashboard-period">{t('dashboard.period.title')}</InputLabel>
                <Select
                  labelId="dashboard-period"
                  label={t('dashboard.period.title')}
                  value={draft.days}
                  data-testid="dashboard-period"
                  onChange={(e) => setDraft({ kind: 'period', days: Number(e.target.value) })}
                >
                  <MenuItem value={0}>{t('dashboard.period.none')}</MenuItem>
                  {DASHBOARD_PERIODS.map((days) => (
                    <MenuItem key={days} value={days} data-testid={`dashboard-period-${days}`}>
                      {t('dashboard.period.last', { count: days })}
                    </MenuItem>
                  ))}
                </Select>
                <FormHelperText>{missing ? t('dashboard.selectFilter') : t('dashboard.period.helper')}</FormHelperText>
              </FormControl>
            </Grid>
          ) : (
            <>
              <Grid size={{ xs: 6, md: 3 }}>
                <TextField
                  type="date"
                  size="small"
                  fullWidth
                  label={t('dashboard.initialDate')}
                  value={draft.from}
                  error={missing}
                  onChange={(e) => setDraft({ ...draft, from: e.target.value })}
                  slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'dashboard-from' } }}
                />
              </Grid>
              <Grid size={{ xs: 6, md: 3 }}>
                <TextField
                  type="date"
                  size="small"
                  fullWidth
                  label={t('dashboard.finalDate')}
                  value={draft.to}
                  error={missing}
                  helperText={missing ? t('dashboard.selectFilter') : undefined}
                  onChange={(e) => setDraft({ ...draft, to: e.target.value })}
                  slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'dashboard-to' } }}
                />
              </Grid>
            </>
          )}
          <Grid size={{ xs: 12, md: 3 }}>
            <Button variant="contained" fullWidth onClick={apply} data-testid="dashboard-filter">
              {t('dashboard.filter')}
            </Button>
          </Grid>
        </Grid>
      </Paper>

      <Grid container spacing={2}>
        {COUNTERS.map((c) => (
          <Grid key={c.key} size={{ xs: 12, sm: 6, md: 4 }}>
            <CounterCard
              label={t(`dashboard.counters.${c.key}`)}
              icon={c.icon}
              color={c.color}
              testId={`dashboard-counter-${c.key}`}
              value={counters ? (c.duration ? formatMinutes(counters[c.key]) : String(counters[c.key])) : '–'}
            />
          </Grid>
        ))}
        <Grid size={{ xs: 12, sm: 6, md: 4 }}>
          <CounterCard
            label={t('dashboard.counters.attendantsOnline')}
            icon={<Circle />}
            color="success.main"
            testId="dashboard-counter-online"
            value={`${online}/${attendants.length}`}
          />
        </Grid>
      </Grid>

      <Paper sx={{ p: 2 }}>
        <Typography component="h2" variant="h6" color="primary" sx={{ mb: 1 }}>
          {t('dashboard.attendants.title')}
        </Typography>
        <DataTable
          rows={attendants}
          columns={columns}
          getRowId={(a) => a.id}
          rowTestId={(a) => `dashboard-attendant-${a.id}`}
          isLoading={query.isLoading}
          hasMore={false}
          onLoadMore={() => undefined}
          emptyText={t('dashboard.attendants.empty')}
          testId="dashboard-attendants"
        />
      </Paper>

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <TicketsUsersChart />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <TicketsDayChart />
        </Grid>
      </Grid>
    </Box>
  );
};

export default DashboardPage;
