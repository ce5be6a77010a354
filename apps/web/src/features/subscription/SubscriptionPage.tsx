import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Grid,
  LinearProgress,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { PLAN_FLAGS, type TPlan, type TSubscriptionUsage } from '@zelo/shared';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { Link as RouterLink } from 'react-router';
import { useAuth } from '../../app/auth/AuthContext';
import { formatDate } from '../../utils/date';
import './i18n';
import { invoiceStatus, type TInvoiceSummary, useLastInvoices, useSubscriptionUsage } from './useSubscription';

const todayLocal = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const Section = ({ title, testId, children }: { title: string; testId: string; children: ReactNode }) => (
  <Card variant="outlined" data-testid={testId} sx={{ height: '100%' }}>
    <CardContent>
      <Typography variant="subtitle2" color="text.secondary" gutterBottom>
        {title}
      </Typography>
      {children}
    </CardContent>
  </Card>
);

const money = (value: number, lang: string) =>
  new Intl.NumberFormat(lang === 'pt' ? 'pt-BR' : lang, { style: 'currency', currency: 'BRL' }).format(value);

const PlanCard = ({ plan, recurrence }: { plan: TPlan | null; recurrence: string }) => {
  const { t, i18n } = useTranslation();
  if (!plan) {
    return (
      <Section title={t('subscription.plan')} testId="subscription-plan">
        <Typography>{t('subscription.noPlan')}</Typography>
      </Section>
    );
  }

  return (
    <Section title={t('subscription.plan')} testId="subscription-plan">
      <Typography variant="h6" component="p">
        {plan.name}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1.5 }}>
        {t('subscription.perRecurrence', {
          value: money(plan.value, i18n.language),
          recurrence: t(`subscription.recurrence.${recurrence}`, { defaultValue: recurrence }),
        })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        {PLAN_FLAGS.map((flag) => {
          const name = t(`subscription.flags.${flag}`);
          return plan[flag] ? (
            <Chip
              key={flag}
              label={name}
              color="success"
              size="small"
              data-testid={`plan-flag-${flag}`}
              data-on="true"
            />
          ) : (
            <Chip
              key={flag}
              label={name}
              variant="outlined"
              size="small"
              title={t('subscription.flagOff', { name })}
              aria-label={t('subscription.flagOff', { name })}
              sx={{ textDecoration: 'line-through', opacity: 0.7 }}
              data-testid={`plan-flag-${flag}`}
              data-on="false"
            />
          );
        })}
      </Box>
    </Section>
  );
};

const UsageLine = ({ label, used, limit, name }: { label: string; used: number; limit: number; name: string }) => {
  const { t } = useTranslation();
  const ratio = limit > 0 ? Math.min(100, (used / limit) * 100) : 100;

  return (
    <Box data-testid={`usage-${name}`} data-used={used} data-limit={limit}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="body2">{label}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t('subscription.usedOf', { used, limit })}
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={ratio}
        color={used >= limit ? 'warning' : 'primary'}
        aria-label={label}
        sx={{ height: 8, borderRadius: 4, mt: 0.5 }}
      />
    </Box>
  );
};

const UsageCard = ({ data }: { data: TSubscriptionUsage }) => {
  const { t } = useTranslation();
  const { plan, usage } = data;

  return (
    <Section title={t('subscription.usage')} testId="subscription-usage">
      <Stack spacing={2}>
        {(['users', 'connections', 'queues'] as const).map((name) => (
          <UsageLine
            key={name}
            name={name}
            label={t(`subscription.${name}`)}
            used={usage[name]}
            limit={plan?.[name] ?? 0}
          />
        ))}
      </Stack>
    </Section>
  );
};

const StandingCard = ({ data }: { data: TSubscriptionUsage }) => {
  const { t } = useTranslation();
  const { company } = data;
  let body: ReactNode;
  if (company.payOnly) {
    body = (
      <Box data-testid="subscription-expired">
        <Chip color="error" size="small" label={t('subscription.expiredTitle')} sx={{ mb: 1 }} />
        <Typography variant="h6" component="p">
          {t('subscription.expiredOn', { date: formatDate(company.dueDate) })}
        </Typography>
      </Box>
    );
  } else if (company.onTrial && company.trialDaysLeft !== null) {
    body = (
      <Box data-testid="subscription-trial">
        <Typography variant="body2" color="text.secondary">
          {t('subscription.testPeriod')}
        </Typography>
        <Typography variant="h6" component="p">
          {t('subscription.trialLeft', { count: company.trialDaysLeft })}
        </Typography>
      </Box>
    );
  } else {
    body = (
      <Box data-testid="subscription-next-due">
        <Typography variant="body2" color="text.secondary">
          {t('subscription.nextDue')}
        </Typography>
        <Typography variant="h6" component="p">
          {company.dueDate ? formatDate(company.dueDate) : t('subscription.noDueDate')}
        </Typography>
      </Box>
    );
  }

  return (
    <Section title={t('subscription.standing')} testId="subscription-standing">
      {body}
    </Section>
  );
};

const STATUS_COLOR = { paid: 'success', open: 'info', expired: 'error' } as const;

const InvoiceRow = ({ invoice, today }: { invoice: TInvoiceSummary; today: string }) => {
  const { t, i18n } = useTranslation();
  const status = invoiceStatus(invoice, today);

  return (
    <Box
      data-testid={`subscription-invoice-${invoice.id}`}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1,
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        '&:last-of-type': { borderBottom: 0 },
      }}
    >
      <Box sx={{ flex: '1 1 160px', minWidth: 0 }}>
        <Typography variant="body2" noWrap>
          {invoice.detail || `#${invoice.id}`}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {t('subscription.dueOn', { date: formatDate(invoice.dueDate) })}
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {money(invoice.value, i18n.language)}
      </Typography>
      <Chip size="small" color={STATUS_COLOR[status]} label={t(`subscription.status.${status}`)} />
      {status !== 'paid' ? (
        <Button
          size="small"
          variant="contained"
          component={RouterLink}
          to={`/financeiro?pay=${invoice.id}`}
          data-testid={`subscription-pay-${invoice.id}`}
        >
          {t('subscription.pay')}
        </Button>
      ) : null}
    </Box>
  );
};

const InvoicesCard = () => {
  const { t } = useTranslation();
  const invoices = useLastInvoices(true);
  const today = todayLocal();

  return (
    <Section title={t('subscription.invoices')} testId="subscription-invoices">
      {invoices.isLoading ? <CircularProgress size={24} /> : null}
      {invoices.isError ? <Typography color="error">{t('subscription.invoicesError')}</Typography> : null}
      {invoices.isSuccess && invoices.data.length === 0 ? (
        <Typography color="text.secondary">{t('subscription.noInvoices')}</Typography>
      ) : null}
      {invoices.data?.map((invoice) => (
        <InvoiceRow key={invoice.id} invoice={invoice} today={today} />
      ))}
      <Link component={RouterLink} to="/financeiro" variant="body2" sx={{ display: 'inline-block', mt: 1 }}>
        {t('subscription.allInvoices')}
      </Link>
    </Section>
  );
};

/** /subscription (any user; the invoices part for admins): plan, usage, standing, the latest invoices. */
const SubscriptionPage = () => {
  const { t } = useTranslation();
  const { user, isAdmin, refreshUser } = useAuth();
  const usage = useSubscriptionUsage();
  const serverPayOnly = usage.data?.company.payOnly;
  const sessionPayOnly = Boolean(user?.company.payOnly);
  // the company paid (or fell due) since the session was read: the shell follows the server
  useEffect(() => {
    if (serverPayOnly !== undefined && serverPayOnly !== sessionPayOnly) {
      void refreshUser().catch(() => undefined);
    }
  }, [serverPayOnly, sessionPayOnly, refreshUser]);

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="subscription-page">
      <Typography variant="h5" component="h1">
        {t('subscription.title')}
      </Typography>
      {usage.isLoading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress />
        </Box>
      ) : null}
      {usage.isError ? (
        <Alert severity="error">
          <AlertTitle>{t('subscription.loadError')}</AlertTitle>
        </Alert>
      ) : null}
      {usage.data ? (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <StandingCard data={usage.data} />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <PlanCard plan={usage.data.plan} recurrence={usage.data.company.recurrence} />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <UsageCard data={usage.data} />
          </Grid>
          {isAdmin ? (
            <Grid size={12}>
              <InvoicesCard />
            </Grid>
          ) : null}
        </Grid>
      ) : null}
    </Box>
  );
};

export default SubscriptionPage;
