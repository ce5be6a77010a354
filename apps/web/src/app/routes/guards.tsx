import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { type Location, Navigate, useLocation, useNavigate } from 'react-router';
import { FullPageLoader } from '../../components/FullPageLoader';
import { toast } from '../../components/toast';
import { useAuth } from '../auth/AuthContext';
import { type Access, checkAccess } from './access';

/** spec 3 §2.3: the redirection after a refused page waits 1000 ms. */
export const DENIED_REDIRECT_MS = 1000;

type FromState = { from?: Pick<Location, 'pathname' | 'search' | 'hash'> } | null;

const originOf = (state: unknown) => {
  const from = (state as FromState)?.from;
  if (!from?.pathname || from.pathname === '/login') {
    return '/';
  }

  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
};

/** Private routes: an unauthenticated user goes to /login, which brings them back afterwards. */
export const RequireAuth = ({ children }: { children: ReactNode }) => {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) {
    return <FullPageLoader />;
  }
  if (!user) {
    return <Navigate to="/login" replace state={{ from: location }} />;
  }

  return children;
};

/** /login, /signup, /forgetpsw: an authenticated user goes to / (or back to where the login was asked for). */
export const PublicOnly = ({ children }: { children: ReactNode }) => {
  const { user, loading } = useAuth();
  const location = useLocation();
  if (loading) {
    return <FullPageLoader />;
  }
  if (user) {
    return <Navigate to={originOf(location.state)} replace />;
  }

  return children;
};

/** A refused page shows a toast and redirects to / after 1000 ms. */
export const RouteGate = ({ access, children }: { access?: Access; children: ReactNode }) => {
  const { user } = useAuth();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const denial = user ? checkAccess(user, access) : null;
  useEffect(() => {
    if (!denial) {
      return;
    }
    if (denial === 'forbidden' && access?.super) {
      // spec 2 §6, §8: a super-user screen (announcements) answers others with an info toast
      toast.info(t('guard.superOnly'));
    } else {
      toast.error(t(denial === 'plan' ? 'guard.noPlanPermission' : 'guard.notAllowed'));
    }
    const timer = setTimeout(() => navigate('/', { replace: true }), DENIED_REDIRECT_MS);

    return () => clearTimeout(timer);
  }, [denial, navigate, t, access?.super]);

  return denial ? null : children;
};

/** / is the dashboard for admins; other users start at /tickets. */
export const HomeRoute = ({ children }: { children: ReactNode }) => {
  const { isAdmin } = useAuth();

  return isAdmin ? children : <Navigate to="/tickets" replace />;
};
