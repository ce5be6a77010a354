import { Alert, AlertTitle, Box, Button } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { Navigate, Link as RouterLink, useLocation } from 'react-router';
import { useAuth } from '../../app/auth/AuthContext';
import { formatDate } from '../../utils/date';
import './i18n';
import { isPayOnly, PAY_ONLY_PATHS, reachableWhenPayOnly, trialDaysLeft } from './standing';

/** A pay-only session opens only the invoices and subscription screens: any other path goes to /subscription. */
export const PayOnlyGate = ({ children }: { children: ReactNode }) => {
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (isPayOnly(user) && !reachableWhenPayOnly(pathname)) {
    return <Navigate to={PAY_ONLY_PATHS[0]} replace />;
  }

  return children;
};

/** On top of every screen of a pay-only session: the subscription expired, and how to pay. */
export const ExpiryNotice = () => {
  const { t } = useTranslation();
  const { user } = useAuth();
  if (!user || !isPayOnly(user)) {
    return null;
  }

  return (
    <Alert severity="error" variant="filled" square data-testid="expiry-notice" sx={{ borderRadius: 0 }}>
      <AlertTitle>{t('subscription.expiredTitle')}</AlertTitle>
      {t('subscription.expiredText', { date: formatDate(user.company.dueDate) })}
      <Box sx={{ mt: 1 }}>
        <Button
          color="inherit"
          variant="outlined"
          size="small"
          component={RouterLink}
          to="/financeiro"
          data-testid="expiry-pay"
          sx={{ whiteSpace: 'nowrap' }}
        >
          {t('subscription.payNow')}
        </Button>
      </Box>
    </Alert>
  );
};

/** Spec 1 §2's trial banner, on top of every screen while the company is in its sign-up trial. */
export const TrialBanner = ({ now }: { now?: Date }) => {
  const { t } = useTranslation();
  const { user, isAdmin } = useAuth();
  if (!user || user.super || isPayOnly(user)) {
    return null;
  }
  const days = trialDaysLeft(user.company, now);
  if (days === null) {
    return null;
  }

  return (
    <Alert
      severity="info"
      square
      data-testid="trial-banner"
      data-days={days}
      sx={{ borderRadius: 0, py: 0, alignItems: 'center' }}
    >
      <strong>{t('subscription.testPeriod')}:</strong> {t('subscription.trialLeft', { count: days })}
      {isAdmin ? (
        <Button
          color="inherit"
          size="small"
          component={RouterLink}
          to="/subscription"
          data-testid="trial-subscribe"
          sx={{ ml: 1, py: 0, whiteSpace: 'nowrap', textDecoration: 'underline' }}
        >
          {t('subscription.subscribeNow')}
        </Button>
      ) : null}
    </Alert>
  );
};
