import {
  AlarmOn,
  AllInbox,
  CheckCircle,
  Forum,
  Replay,
  SentimentSatisfiedAlt,
  SmartToy,
  Textsms,
  Timer,
  TaskAlt,
} from '@mui/icons-material';
import { Box, Grid, Paper, Typography } from '@mui/material';
import type { TLanguage, TReportSummary } from '@zelo/shared';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { formatSeconds } from '../../utils/duration';
import { durationOf, formatNumber, formatRate } from './format';
import type { TClock } from './reportFilter';

type TFigure = { key: string; icon: ReactNode; color: string; value: string; sub?: string };

/** The summary's figures as the cards show them (durations on the chosen clock). */
export const summaryFigures = (
  s: TReportSummary,
  clock: TClock,
  lang: TLanguage,
  t: (key: string, options?: Record<string, unknown>) => string,
): TFigure[] => [
  { key: 'opened', icon: <Forum />, color: 'primary.main', value: formatNumber(s.opened, lang) },
  { key: 'resolved', icon: <CheckCircle />, color: 'success.main', value: formatNumber(s.resolved, lang) },
  {
    key: 'firstResponse',
    icon: <Timer />,
    color: 'info.main',
    value: formatSeconds(durationOf(s.firstResponse, 'median', clock)),
    sub: t('reports.summary.p90', { value: formatSeconds(durationOf(s.firstResponse, 'p90', clock)) }),
  },
  {
    key: 'resolution',
    icon: <TaskAlt />,
    color: 'secondary.main',
    value: formatSeconds(durationOf(s.resolution, 'median', clock)),
    sub: t('reports.summary.p90', { value: formatSeconds(durationOf(s.resolution, 'p90', clock)) }),
  },
  {
    key: 'replies',
    icon: <Textsms />,
    color: 'primary.main',
    value: formatNumber(s.repliesPerConversation, lang),
  },
  {
    key: 'reopenRate',
    icon: <Replay />,
    color: 'warning.main',
    value: formatRate(s.reopenRate, lang),
    sub: t('reports.summary.reopened', { count: s.reopened }),
  },
  {
    key: 'botResolved',
    icon: <SmartToy />,
    color: 'info.main',
    value: formatRate(s.botResolvedShare, lang),
    sub: t('reports.summary.botResolvedCount', { count: s.botResolved }),
  },
  { key: 'backlog', icon: <AllInbox />, color: 'error.main', value: formatNumber(s.backlog, lang) },
  {
    key: 'csat',
    icon: <SentimentSatisfiedAlt />,
    color: 'success.main',
    value: formatRate(s.csat.score, lang),
    sub: t('reports.summary.rated', { count: s.csat.rated }),
  },
  {
    key: 'slaFirstResponse',
    icon: <AlarmOn />,
    color: 'info.main',
    value: formatRate(s.sla.firstResponse.share, lang),
    sub: t('reports.summary.slaDecided', { count: s.sla.firstResponse.decided }),
  },
  {
    key: 'slaResolution',
    icon: <AlarmOn />,
    color: 'secondary.main',
    value: formatRate(s.sla.resolution.share, lang),
    sub: t('reports.summary.slaDecided', { count: s.sla.resolution.decided }),
  },
];

const NO_STATS = { count: 0, median: null, p90: null, medianBusiness: null, p90Business: null };
/** what the cards lay out before the first answer (their values shown as "–") */
const EMPTY_SUMMARY: TReportSummary = {
  window: { from: '', to: '', timeZone: '', groupBy: 'day' },
  opened: 0,
  resolved: 0,
  firstResponse: NO_STATS,
  resolution: NO_STATS,
  botTime: NO_STATS,
  repliesPerConversation: null,
  reopened: 0,
  reopenRate: null,
  botResolved: 0,
  botResolvedShare: null,
  backlog: 0,
  csat: { rated: 0, satisfied: 0, score: null, distribution: { 1: 0, 2: 0, 3: 0 } },
  sla: { firstResponse: { decided: 0, met: 0, share: null }, resolution: { decided: 0, met: 0, share: null } },
};

const FigureCard = ({ label, figure }: { label: string; figure: TFigure }) => (
  <Paper sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 2, height: '100%' }}>
    <Box sx={{ color: figure.color, display: 'flex', '& svg': { fontSize: 36 } }}>{figure.icon}</Box>
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" fontWeight={600} data-testid={`reports-summary-${figure.key}`}>
        {figure.value}
      </Typography>
      {figure.sub ? (
        <Typography variant="caption" color="text.secondary" data-testid={`reports-summary-${figure.key}-sub`}>
          {figure.sub}
        </Typography>
      ) : null}
    </Box>
  </Paper>
);

/** The summary's figures: one column on a phone, two on a tablet, three on a desktop, four on a wide screen. */
export const SummaryCards = ({
  summary,
  clock,
  lang,
}: {
  summary: TReportSummary | undefined;
  clock: TClock;
  lang: TLanguage;
}) => {
  const { t } = useTranslation();
  const figures = summaryFigures(summary ?? EMPTY_SUMMARY, clock, lang, t).map((f) =>
    summary ? f : { ...f, value: '–', sub: undefined },
  );

  return (
    <Grid container spacing={2} data-testid="reports-summary">
      {figures.map((figure) => (
        <Grid key={figure.key} size={{ xs: 12, sm: 6, md: 4, xl: 3 }}>
          <FigureCard label={t(`reports.summary.${figure.key}`)} figure={figure} />
        </Grid>
      ))}
    </Grid>
  );
};
