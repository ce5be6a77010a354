import { ArrowBack, WarningAmber } from '@mui/icons-material';
import { Box, Chip, IconButton, LinearProgress, Paper, Stack, Tooltip, Typography } from '@mui/material';
import type { TCampaignCounts, TCampaignRecipient } from '@zelo/shared';
import { useTranslation } from '../../i18n/useTranslation';
import { Link as RouterLink, useParams } from 'react-router';
import { DataTable, type TColumn } from '../../components/kit';
import { CampaignStatusChip } from './CampaignStatusChip';
import { formatDateTime, percentOf, RECIPIENT_STATE_COLOR, recipientState } from './campaignLogic';
import './i18n';
import { useCampaignReport } from './useCampaignReport';

type TCountKey = 'valid' | 'sent' | 'delivered' | 'read' | 'failed';
const COUNTS: { key: TCountKey; label: string; color: 'primary' | 'info' | 'secondary' | 'success' | 'error' }[] = [
  { key: 'valid', label: 'validContacts', color: 'primary' },
  { key: 'sent', label: 'sent', color: 'info' },
  { key: 'delivered', label: 'delivered', color: 'secondary' },
  { key: 'read', label: 'read', color: 'success' },
  { key: 'failed', label: 'failed', color: 'error' },
];

const CountCard = ({
  label,
  value,
  total,
  color,
  testId,
}: {
  label: string;
  value: number;
  total: number;
  color: (typeof COUNTS)[number]['color'];
  testId: string;
}) => (
  <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0 }} data-testid={testId} data-value={value}>
    <Typography variant="caption" color="text.secondary" noWrap component="p">
      {label}
    </Typography>
    <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
      {value}
    </Typography>
    <LinearProgress
      variant="determinate"
      color={color}
      value={percentOf(value, total)}
      sx={{ height: 8, borderRadius: 1, mt: 0.5 }}
      aria-label={label}
    />
  </Paper>
);

const InfoLine = ({ label, value, testId }: { label: string; value: string; testId?: string }) =>
  value ? (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  ) : null;

const EMPTY_COUNTS: TCampaignCounts = {
  valid: 0,
  queued: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  atLeastOnce: 0,
};

/**
 * /campaign/:campaignId/report: the campaign's status and dates, its counts with progress bars (valid recipients,
 * sent, delivered, read, failed) and one row per recipient (state, time, error, the at-least-once mark), live from
 * the company's campaign events and asked again 5 s after the campaign finishes.
 */
const CampaignReportPage = () => {
  const { t } = useTranslation();
  const { campaignId } = useParams();
  const id = Number(campaignId);
  const report = useCampaignReport(id);
  const { campaign } = report;
  const counts = report.counts ?? EMPTY_COUNTS;
  const done = counts.sent + counts.failed;

  const columns: TColumn<TCampaignRecipient>[] = [
    {
      key: 'number',
      header: t('campaigns.report.columns.number'),
      primary: true,
      render: (r) => (
        <Stack direction="row" spacing={0.5} alignItems="center">
          <span>{r.number}</span>
          {r.atLeastOnce ? (
            <Tooltip title={t('campaigns.report.atLeastOnceHint')}>
              <WarningAmber
                fontSize="small"
                color="warning"
                aria-label={t('campaigns.report.atLeastOnce')}
                data-testid={`recipient-at-least-once-${r.id}`}
              />
            </Tooltip>
          ) : null}
        </Stack>
      ),
    },
    { key: 'name', header: t('campaigns.report.columns.name'), render: (r) => r.name },
    {
      key: 'state',
      header: t('campaigns.report.columns.state'),
      align: 'center',
      render: (r) => {
        const state = recipientState(r);

        return (
          <Chip
            size="small"
            variant="outlined"
            color={RECIPIENT_STATE_COLOR[state]}
            label={t(`campaigns.report.states.${state}`)}
            data-testid={`recipient-state-${r.id}`}
            data-state={state}
          />
        );
      },
    },
    {
      key: 'time',
      header: t('campaigns.report.columns.time'),
      align: 'center',
      render: (r) => formatDateTime(r.time ?? r.scheduledFor),
    },
    {
      key: 'error',
      header: t('campaigns.report.columns.error'),
      render: (r) =>
        r.error ? (
          <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
            {r.error}
          </Typography>
        ) : null,
    },
  ];

  if (!report.isLoading && report.query.isError && !campaign) {
    return (
      <Box sx={{ p: 2 }}>
        <Typography color="text.secondary" data-testid="campaign-report-not-found">
          {t('campaigns.report.notFound')}
        </Typography>
      </Box>
    );
  }

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, display: 'flex', flexDirection: 'column', gap: 2, minHeight: 0 }}>
      <Stack direction="row" spacing={1} alignItems="center" sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Tooltip title={t('campaigns.report.back')}>
          <IconButton component={RouterLink} to="/campaigns" aria-label={t('campaigns.report.back')} size="small">
            <ArrowBack />
          </IconButton>
        </Tooltip>
        <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {campaign ? t('campaigns.report.title', { name: campaign.name }) : t('campaigns.report.fallbackTitle')}
        </Typography>
        {campaign ? <CampaignStatusChip status={campaign.status} testId="campaign-report-status" /> : null}
      </Stack>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction="row" justifyContent="space-between" alignItems="baseline" sx={{ mb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t('campaigns.report.sent')}
          </Typography>
          <Typography variant="body2" data-testid="campaign-report-progress-text">
            {t('campaigns.report.of', { done, total: counts.valid })}
          </Typography>
        </Stack>
        <LinearProgress
          variant="determinate"
          value={percentOf(done, counts.valid)}
          sx={{ height: 14, borderRadius: 1 }}
          data-testid="campaign-report-progress"
          aria-label={t('campaigns.report.sent')}
        />
        <Box
          sx={{
            display: 'grid',
            gridTemplateColumns: {
              xs: 'repeat(2, minmax(0, 1fr))',
              sm: 'repeat(3, minmax(0, 1fr))',
              md: 'repeat(5, minmax(0, 1fr))',
            },
            gap: 1.5,
            mt: 2,
          }}
        >
          {COUNTS.map(({ key, label, color }) => (
            <CountCard
              key={key}
              label={t(`campaigns.report.${label}`)}
              value={counts[key]}
              total={counts.valid}
              color={color}
              testId={`campaign-report-count-${key}`}
            />
          ))}
        </Box>
        {counts.atLeastOnce > 0 ? (
          <Typography variant="body2" color="warning.main" sx={{ mt: 1.5 }} data-testid="campaign-report-at-least-once">
            <WarningAmber fontSize="inherit" sx={{ verticalAlign: 'middle', mr: 0.5 }} />
            {t('campaigns.report.atLeastOnce')}: {counts.atLeastOnce}
          </Typography>
        ) : null}
        {campaign ? (
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(5, minmax(0, 1fr))' },
              gap: 1.5,
              mt: 2,
            }}
          >
            <InfoLine label={t('campaigns.report.connection')} value={campaign.whatsapp?.name ?? ''} />
            <InfoLine label={t('campaigns.report.contactList')} value={campaign.contactList?.name ?? ''} />
            <InfoLine label={t('campaigns.report.tag')} value={campaign.tag?.name ?? ''} />
            <InfoLine
              label={t('campaigns.report.scheduledAt')}
              value={formatDateTime(campaign.scheduledAt)}
              testId="campaign-report-scheduled"
            />
            <InfoLine
              label={t('campaigns.report.completedAt')}
              value={formatDateTime(campaign.completedAt)}
              testId="campaign-report-completed"
            />
          </Box>
        ) : null}
      </Paper>
      <Typography variant="h6" component="h2">
        {t('campaigns.report.recipients')}
      </Typography>
      <DataTable
        rows={report.rows}
        columns={columns}
        getRowId={(r) => r.id}
        rowTestId={(r) => `recipient-row-${r.number}`}
        rowExtras={(r) => ({ 'data-state': recipientState(r) })}
        isLoading={report.isLoading}
        hasMore={report.hasMore}
        onLoadMore={report.loadMore}
        emptyText={t('campaigns.report.empty')}
        testId="campaign-report-recipients"
        sx={{ minHeight: 240 }}
      />
    </Box>
  );
};

export default CampaignReportPage;
