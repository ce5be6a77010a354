import {
  Box,
  Button,
  Chip,
  Divider,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { TLanguage, TReportComment, TReportRowFigures } from '@zelo/shared';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { formatDateTime } from '../../utils/date';
import { formatSeconds } from '../../utils/duration';
import { durationOf, formatNumber, formatRate } from './format';
import type { TClock } from './reportFilter';
import { EmptyNote } from './ReportCard';

type TFigureColumn = { key: string; value: (row: TReportRowFigures) => string };

const figureColumns = (clock: TClock, lang: TLanguage): TFigureColumn[] => [
  { key: 'opened', value: (r) => formatNumber(r.opened, lang) },
  { key: 'resolved', value: (r) => formatNumber(r.resolved, lang) },
  { key: 'frtMedian', value: (r) => formatSeconds(durationOf(r.firstResponse, 'median', clock)) },
  { key: 'frtP90', value: (r) => formatSeconds(durationOf(r.firstResponse, 'p90', clock)) },
  { key: 'resMedian', value: (r) => formatSeconds(durationOf(r.resolution, 'median', clock)) },
  { key: 'resP90', value: (r) => formatSeconds(durationOf(r.resolution, 'p90', clock)) },
  { key: 'replies', value: (r) => formatNumber(r.repliesPerConversation, lang) },
  { key: 'reopenRate', value: (r) => formatRate(r.reopenRate, lang) },
  { key: 'botResolvedShare', value: (r) => formatRate(r.botResolvedShare, lang) },
  {
    key: 'csat',
    value: (r) => (r.csat.rated ? `${formatRate(r.csat.score, lang)} (${formatNumber(r.csat.rated, lang)})` : '—'),
  },
  { key: 'slaFirstResponse', value: (r) => formatRate(r.sla.firstResponse.share, lang) },
  { key: 'slaResolution', value: (r) => formatRate(r.sla.resolution.share, lang) },
];

/**
 * The figures per agent or per queue: the name column stays put while the others scroll sideways (a phone), the
 * durations on the chosen clock.
 */
export const FiguresTable = <T extends TReportRowFigures>({
  rows,
  nameHeader,
  nameOf,
  rowKey,
  clock,
  lang,
  testId,
}: {
  rows: T[];
  nameHeader: string;
  nameOf: (row: T) => ReactNode;
  rowKey: (row: T) => string;
  clock: TClock;
  lang: TLanguage;
  testId: string;
}) => {
  const { t } = useTranslation();
  if (rows.length === 0) {
    return <EmptyNote text={t('reports.tables.empty')} testId={`${testId}-empty`} />;
  }
  const columns = figureColumns(clock, lang);
  // the name column stays put over the others: opaque, with the card's own dark-mode overlay (Paper's variable)
  const sticky = {
    position: 'sticky',
    left: 0,
    zIndex: 1,
    bgcolor: 'background.paper',
    backgroundImage: 'var(--Paper-overlay)',
  } as const;

  return (
    <TableContainer sx={{ overflowX: 'auto' }} data-testid={testId}>
      <Table size="small" sx={{ minWidth: 960 }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ ...sticky, zIndex: 2, minWidth: 140 }}>{nameHeader}</TableCell>
            {columns.map((c) => (
              <TableCell key={c.key} align="right" sx={{ minWidth: 84, lineHeight: 1.2 }}>
                {t(`reports.tables.${c.key}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={rowKey(row)} data-testid={`${testId}-row-${rowKey(row)}`} hover>
              <TableCell sx={{ ...sticky, fontWeight: 500 }} component="th" scope="row">
                {nameOf(row)}
              </TableCell>
              {columns.map((c) => (
                <TableCell key={c.key} align="right" sx={{ whiteSpace: 'nowrap' }} data-col={c.key}>
                  {c.value(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

/** a queue's name with its colour, or "No queue" */
export const QueueName = ({ name, color }: { name: string; color: string | null }) => {
  const { t } = useTranslation();

  return (
    <Stack direction="row" spacing={1} alignItems="center" component="span">
      <Box
        component="span"
        sx={{ width: 10, height: 10, borderRadius: '50%', flexShrink: 0, bgcolor: color ?? 'text.disabled' }}
      />
      <span>{name || t('reports.tables.noQueue')}</span>
    </Stack>
  );
};

const RATE_COLOR = { 1: 'error', 2: 'info', 3: 'success' } as const;

/** One page of satisfaction comments, newest first, with the previous and next pages. */
export const CommentsList = ({
  comments,
  count,
  page,
  hasMore,
  onPage,
}: {
  comments: TReportComment[];
  count: number;
  page: number;
  hasMore: boolean;
  onPage: (page: number) => void;
}) => {
  const { t } = useTranslation();
  if (count === 0 && page === 1) {
    return <EmptyNote text={t('reports.comments.empty')} testId="reports-comments-empty" />;
  }

  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="reports-comments-count">
        {t('reports.comments.count', { count })}
      </Typography>
      <Stack divider={<Divider flexItem />} spacing={1.5} data-testid="reports-comments">
        {comments.map((c) => (
          <Stack
            key={c.ratingId}
            direction="row"
            spacing={1.5}
            alignItems="flex-start"
            data-testid={`reports-comment-${c.ratingId}`}
          >
            <Chip
              size="small"
              label={c.rate}
              color={RATE_COLOR[c.rate as 1 | 2 | 3] ?? 'default'}
              aria-label={t(`reports.rates.${c.rate}`)}
              sx={{ fontWeight: 700, minWidth: 32 }}
            />
            <Box sx={{ minWidth: 0, flex: 1 }}>
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {c.comment}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {c.userName
                  ? t('reports.comments.by', { contact: c.contactName, agent: c.userName })
                  : t('reports.comments.byNobody', { contact: c.contactName })}
                {' · '}
                {formatDateTime(c.createdAt)}
              </Typography>
            </Box>
          </Stack>
        ))}
      </Stack>
      <Stack direction="row" spacing={1} alignItems="center" justifyContent="flex-end" sx={{ mt: 2 }}>
        <Button
          size="small"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
          data-testid="reports-comments-previous"
        >
          {t('reports.comments.previous')}
        </Button>
        <Typography variant="body2" color="text.secondary" data-testid="reports-comments-page">
          {t('reports.comments.page', { page })}
        </Typography>
        <Button size="small" disabled={!hasMore} onClick={() => onPage(page + 1)} data-testid="reports-comments-next">
          {t('reports.comments.next')}
        </Button>
      </Stack>
    </Box>
  );
};
