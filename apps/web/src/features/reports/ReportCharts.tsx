import { Box, useTheme } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { TCsat, TReportSeries } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { formatDate } from '../../utils/date';
import { formatSeconds } from '../../utils/duration';
import { durationOf, formatBucket } from './format';
import type { TClock } from './reportFilter';
import { EmptyNote } from './ReportCard';

const CHART_HEIGHT = 260;

/** the x axis of a series: each bucket's first day, dd/MM (MM/yyyy by month), the whole day in the tooltip */
const bucketAxis = (series: TReportSeries) => {
  const buckets = series.points.map((p) => p.bucket);

  return {
    scaleType: 'point' as const,
    data: buckets,
    valueFormatter: (bucket: string, ctx: { location: string }) =>
      ctx.location === 'tooltip' && series.window.groupBy !== 'month'
        ? formatDate(bucket)
        : formatBucket(bucket, series.window.groupBy),
  };
};

/** Conversations opened and resolved per bucket, and those left open at each bucket's end. */
export const VolumeChart = ({ series }: { series: TReportSeries }) => {
  const { t } = useTranslation();
  const theme = useTheme();
  const points = series.points;
  if (!points.some((p) => p.opened || p.resolved || p.backlog)) {
    return <EmptyNote text={t('reports.charts.empty')} testId="reports-volume-empty" />;
  }

  return (
    <Box sx={{ width: '100%', minWidth: 0 }} data-testid="reports-volume-chart">
      <LineChart
        height={CHART_HEIGHT}
        xAxis={[bucketAxis(series)]}
        yAxis={[{ tickMinStep: 1, width: 36 }]}
        series={[
          {
            id: 'opened',
            data: points.map((p) => p.opened),
            label: t('reports.charts.opened'),
            color: theme.palette.primary.main,
          },
          {
            id: 'resolved',
            data: points.map((p) => p.resolved),
            label: t('reports.charts.resolved'),
            color: theme.palette.success.main,
          },
          {
            id: 'backlog',
            data: points.map((p) => p.backlog),
            label: t('reports.charts.backlog'),
            color: theme.palette.warning.main,
            area: true,
            showMark: false,
          },
        ]}
      />
    </Box>
  );
};

/** The median and p90 of first response or resolution per bucket, on the chosen clock. */
export const DurationChart = ({
  series,
  kind,
  clock,
}: {
  series: TReportSeries;
  kind: 'firstResponse' | 'resolution';
  clock: TClock;
}) => {
  const { t } = useTranslation();
  const theme = useTheme();
  const median = series.points.map((p) => durationOf(p[kind], 'median', clock));
  const p90 = series.points.map((p) => durationOf(p[kind], 'p90', clock));
  if (!median.some((v) => v !== null) && !p90.some((v) => v !== null)) {
    return <EmptyNote text={t('reports.charts.noDurations')} testId={`reports-${kind}-empty`} />;
  }
  const format = (v: number | null) => formatSeconds(v);

  return (
    <Box sx={{ width: '100%', minWidth: 0 }} data-testid={`reports-${kind}-chart`}>
      <LineChart
        height={CHART_HEIGHT}
        xAxis={[bucketAxis(series)]}
        yAxis={[{ width: 72, valueFormatter: (v: number) => formatSeconds(v) }]}
        series={[
          {
            id: 'median',
            data: median,
            label: t('reports.charts.median'),
            color: kind === 'firstResponse' ? theme.palette.info.main : theme.palette.secondary.main,
            connectNulls: true,
            showMark: true,
            valueFormatter: format,
          },
          {
            id: 'p90',
            data: p90,
            label: t('reports.charts.p90'),
            color: theme.palette.error.main,
            connectNulls: true,
            showMark: true,
            valueFormatter: format,
          },
        ]}
      />
    </Box>
  );
};

/** How many ratings of 1, 2 and 3 were given in the window. */
export const CsatChart = ({ csat }: { csat: TCsat }) => {
  const { t } = useTranslation();
  const theme = useTheme();
  if (csat.rated === 0) {
    return <EmptyNote text={t('reports.charts.noRatings')} testId="reports-csat-empty" />;
  }
  const rates = [1, 2, 3] as const;

  return (
    <Box sx={{ width: '100%', minWidth: 0 }} data-testid="reports-csat-chart">
      <BarChart
        height={CHART_HEIGHT}
        xAxis={[
          {
            scaleType: 'band',
            data: rates.map((r) => t(`reports.rates.${r}`)),
            colorMap: {
              type: 'ordinal',
              values: rates.map((r) => t(`reports.rates.${r}`)),
              colors: [theme.palette.error.main, theme.palette.info.main, theme.palette.success.main],
            },
          },
        ]}
        yAxis={[{ tickMinStep: 1, width: 36 }]}
        series={[{ data: rates.map((r) => csat.distribution[r]), label: t('reports.charts.ratings') }]}
        hideLegend
      />
    </Box>
  );
};
