import { Alert, Box, Button, Grid, LinearProgress, Stack, Typography } from '@mui/material';
import { DEFAULT_LANGUAGE, type TLanguage, type TReportCsat, type TReportSummary } from '@zelo/shared';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useSearchParams } from 'react-router';
import { toast } from '../../components/toast';
import { normalizeLanguage } from '../../i18n';
import { formatDate } from '../../utils/date';
import { ExportMenu } from './ExportMenu';
import { Heatmap } from './Heatmap';
import './i18n';
import { ReportCard } from './ReportCard';
import { CsatChart, DurationChart, VolumeChart } from './ReportCharts';
import { ReportFilters } from './ReportFilters';
import { CommentsList, FiguresTable, QueueName } from './ReportTables';
import { filterOfSearch, reportParams, searchOfFilter, type TReportFilter, windowError } from './reportFilter';
import { SummaryCards } from './SummaryCards';
import { useCsatReport, useReport } from './useReports';
import { WeeklyMailSwitch } from './WeeklyMailSwitch';

/** nothing at all in the window: no conversation opened, resolved, left open or rated */
const isEmptySummary = (s: TReportSummary) => !s.opened && !s.resolved && !s.backlog && !s.csat.rated;

/** The satisfaction comments, a page at a time (back to the first page whenever the filter changes: see its key). */
const CommentsCard = ({ params }: { params: Record<string, string> | null }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const csat = useCsatReport(params, page);
  const data: TReportCsat | undefined = csat.data;

  return (
    <ReportCard title={t('reports.comments.title')} report="csat" params={params} testId="reports-comments-card">
      {data ? (
        <CommentsList comments={data.comments} count={data.count} page={page} hasMore={data.hasMore} onPage={setPage} />
      ) : null}
    </ReportCard>
  );
};

/**
 * `/reports` (admins): attendance figures of a window of the company's days, filtered by queue, agent, connection
 * and tag and grouped by day, week or month (issue 25 item 2). The filter lives in the URL; each card exports its
 * report as CSV or XLSX in the interface's language.
 */
const ReportsPage = () => {
  const { t, i18n } = useTranslation();
  const lang: TLanguage = normalizeLanguage(i18n.language) ?? DEFAULT_LANGUAGE;
  const [search, setSearch] = useSearchParams();
  const filter = useMemo(() => filterOfSearch(search), [search]);
  const error = windowError(filter);
  const params = useMemo(() => (error ? null : reportParams(filter)), [filter, error]);
  const summary = useReport('summary', params);
  const series = useReport('series', params);
  const heatmap = useReport('heatmap', params);
  const agents = useReport('agents', params);
  const queues = useReport('queues', params);
  const csat = useCsatReport(params, 1);
  const queries = [summary, series, heatmap, agents, queues, csat];
  const failed = queries.some((q) => q.isError);
  const fetching = queries.some((q) => q.isFetching);
  useEffect(() => {
    if (failed) toast.error(t('reports.loadError'));
  }, [failed, t]);

  const change = (next: TReportFilter) => setSearch(searchOfFilter(next), { replace: true });
  const retry = () => {
    for (const q of queries) if (q.isError) void q.refetch();
  };
  const shown = summary.data?.window ?? null;
  const { clock } = filter;

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="reports-page">
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={1.5}
        alignItems={{ xs: 'stretch', md: 'center' }}
        justifyContent="space-between"
      >
        <Box>
          <Typography variant="h5" component="h1" data-testid="reports-title">
            {t('reports.title')}
          </Typography>
          {shown ? (
            <Typography variant="body2" color="text.secondary" data-testid="reports-window">
              {`${t('reports.subtitle', { from: formatDate(shown.from), to: formatDate(shown.to) })} · ${shown.timeZone}`}
            </Typography>
          ) : null}
        </Box>
        <Stack direction="row" spacing={1.5} alignItems="center" flexWrap="wrap" useFlexGap>
          <WeeklyMailSwitch />
          <ExportMenu
            label={t('reports.export.label')}
            params={params}
            testId="reports-export"
            choices={[
              { report: 'tickets', format: 'csv', label: t('reports.export.ticketsCsv') },
              { report: 'tickets', format: 'xlsx', label: t('reports.export.ticketsXlsx') },
              { report: 'summary', format: 'csv', label: `${t('reports.export.summary')} · CSV` },
              { report: 'summary', format: 'xlsx', label: `${t('reports.export.summary')} · Excel (XLSX)` },
            ]}
          />
        </Stack>
      </Stack>

      <ReportFilters filter={filter} shownWindow={shown} windowError={error} onChange={change} />

      <Box sx={{ height: 4 }}>{fetching ? <LinearProgress data-testid="reports-loading" /> : null}</Box>

      {failed ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={retry} data-testid="reports-retry">
              {t('reports.retry')}
            </Button>
          }
          data-testid="reports-error"
        >
          {t('reports.loadError')}
        </Alert>
      ) : null}

      {summary.data && isEmptySummary(summary.data) ? (
        <Alert severity="info" data-testid="reports-nothing">
          {t('reports.summary.nothing')}
        </Alert>
      ) : null}

      <SummaryCards summary={summary.data} clock={clock} lang={lang} />

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <ReportCard title={t('reports.charts.volume')} report="series" params={params} testId="reports-volume">
            {series.data ? <VolumeChart series={series.data} /> : null}
          </ReportCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <ReportCard title={t('reports.charts.csat')} report="csat" params={params} testId="reports-csat">
            {csat.data ? <CsatChart csat={csat.data} /> : null}
          </ReportCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <ReportCard
            title={t('reports.charts.firstResponse')}
            hint={t(`reports.filters.${clock}`)}
            report="series"
            params={params}
            testId="reports-first-response"
          >
            {series.data ? <DurationChart series={series.data} kind="firstResponse" clock={clock} /> : null}
          </ReportCard>
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <ReportCard
            title={t('reports.charts.resolution')}
            hint={t(`reports.filters.${clock}`)}
            report="series"
            params={params}
            testId="reports-resolution"
          >
            {series.data ? <DurationChart series={series.data} kind="resolution" clock={clock} /> : null}
          </ReportCard>
        </Grid>
        <Grid size={12}>
          <ReportCard
            title={t('reports.charts.heatmap')}
            hint={t('reports.charts.heatmapHint')}
            report="heatmap"
            params={params}
            testId="reports-heatmap"
          >
            {heatmap.data ? <Heatmap heatmap={heatmap.data} /> : null}
          </ReportCard>
        </Grid>
        <Grid size={12}>
          <ReportCard title={t('reports.tables.agents')} report="agents" params={params} testId="reports-agents-card">
            {agents.data ? (
              <FiguresTable
                rows={agents.data.rows}
                nameHeader={t('reports.tables.agent')}
                nameOf={(r) => r.name || t('reports.tables.noAgent')}
                rowKey={(r) => String(r.userId ?? 'none')}
                clock={clock}
                lang={lang}
                testId="reports-agents"
              />
            ) : null}
          </ReportCard>
        </Grid>
        <Grid size={12}>
          <ReportCard title={t('reports.tables.queues')} report="queues" params={params} testId="reports-queues-card">
            {queues.data ? (
              <FiguresTable
                rows={queues.data.rows}
                nameHeader={t('reports.tables.queue')}
                nameOf={(r) => <QueueName name={r.name} color={r.color} />}
                rowKey={(r) => String(r.queueId ?? 'none')}
                clock={clock}
                lang={lang}
                testId="reports-queues"
              />
            ) : null}
          </ReportCard>
        </Grid>
        <Grid size={12}>
          <CommentsCard key={JSON.stringify(params)} params={params} />
        </Grid>
      </Grid>
    </Box>
  );
};

export default ReportsPage;
