import {
  DUE_DATE_WARNING_DAYS,
  events,
  type TAuthResponse,
  type TLoginRequest,
  type TPlanFlag,
  type TSessionUser,
} from '@zelo/shared';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { ApiError, api, onSubscriptionExpired, onTokenRefreshed, refreshAccessToken } from '../../api/http';
import { clearSession, endSession, getToken, onSessionEnded, storeSession } from '../../api/session';
import { connectSocket, disconnectSocket, useSocketEvent } from '../../api/socket';
import { toast } from '../../components/toast';
import { changeLanguage, currentLanguage } from '../../i18n';
import { daysUntil, formatDate } from '../../utils/date';

export type AuthContextValue = {
  user: TSessionUser | null;
  /** true while a stored token is being turned back into a user at page load */
  loading: boolean;
  isAdmin: boolean;
  isSuper: boolean;
  login: (credentials: TLoginRequest) => Promise<TSessionUser>;
  logout: () => Promise<void>;
  refreshUser: () => Promise<void>;
  /** plan flag of the user's company (false without a plan) */
  hasPlanFlag: (flag: TPlanFlag) => boolean;
};

/** exported for tests, which provide a fixed session; the app uses <AuthProvider> */
export const AuthContext = createContext<AuthContextValue | null>(null);

const applyUserLanguage = (user: TSessionUser) => {
  if (user.language && user.language !== currentLanguage()) {
    void changeLanguage(user.language);
  }
};

export const AuthProvider = ({ children }: { children: ReactNode }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [user, setUser] = useState<TSessionUser | null>(null);
  const [loading, setLoading] = useState(() => Boolean(getToken()));

  // page load with a token: a refresh restores the user (spec 1 §4)
  useEffect(() => {
    if (!getToken()) {
      return;
    }
    refreshAccessToken()
      .then(({ user: restored }) => setUser(restored))
      .catch((err) => {
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
          clearSession();
        }
      })
      .finally(() => setLoading(false));
  }, []);

  useEffect(() => onTokenRefreshed(({ user: refreshed }) => setUser(refreshed)), []);
  // the company fell due during the session (a 402): a refresh turns an admin's session pay-only, and
  // ends an attendant's with the spec's message (the server refuses their refresh)
  const payOnlyNow = Boolean(user?.company.payOnly);
  useEffect(() => {
    if (payOnlyNow) {
      return;
    }

    return onSubscriptionExpired(() => {
      refreshAccessToken().catch((err) => {
        if (err instanceof ApiError && err.code === 'ERR_SUBSCRIPTION_EXPIRED') {
          const date = formatDate(/\d{4}-\d{2}-\d{2}/.exec(err.message)?.[0]);
          toast.error(date ? t('auth.subscriptionExpired', { date }) : t('errors.ERR_SUBSCRIPTION_EXPIRED'));
        }
        clearSession();
        setUser(null);
      });
    });
  }, [payOnlyNow, t]);
  // the private-route guard then sends the user to /login, keeping where they were for after the login
  useEffect(() => onSessionEnded(() => setUser(null)), []);

  // one socket per signed-in user
  const userId = user?.id;
  useEffect(() => {
    if (!userId) {
      return;
    }
    connectSocket();

    return () => disconnectSocket();
  }, [userId]);

  const login = useCallback(
    async (credentials: TLoginRequest) => {
      const auth = await api.post<TAuthResponse>('/auth/login', credentials);
      storeSession(auth);
      applyUserLanguage(auth.user);
      const days = daysUntil(auth.user.company.dueDate);
      if (days !== null && days >= 0 && days < DUE_DATE_WARNING_DAYS) {
        toast.warning(t('auth.dueSoon', { count: days }));
      }
      setUser(auth.user);

      return auth.user;
    },
    [t],
  );

  const logout = useCallback(async () => {
    try {
      await api.delete('/auth/logout');
    } catch {
      // the session is ended locally whatever the server answers
    }
    clearSession();
    setUser(null);
    navigate('/login', { replace: true });
  }, [navigate]);

  const refreshUser = useCallback(async () => {
    const me = await api.get<TSessionUser>('/auth/me');
    setUser(me);
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      loading,
      isAdmin: user?.profile === 'admin',
      isSuper: Boolean(user?.super),
      login,
      logout,
      refreshUser,
      hasPlanFlag: (flag) => Boolean(user?.company.plan?.[flag]),
    }),
    [user, loading, login, logout, refreshUser],
  );

  return (
    <AuthContext.Provider value={value}>
      {user ? <SessionEvents user={user} onUserChanged={refreshUser} /> : null}
      {children}
    </AuthContext.Provider>
  );
};

type SessionEventsProps = { user: TSessionUser; onUserChanged: () => Promise<void> };

/** Realtime events about the session itself: another login of the same user, changes to the own user. */
const SessionEvents = ({ user, onUserChanged }: SessionEventsProps) => {
  const { t } = useTranslation();
  useSocketEvent(events.auth(user.companyId), (payload: { action?: string; user?: { id?: number } }) => {
    if (payload?.action === 'update' && payload.user?.id === user.id) {
      // the session ends in place (no reload), so the message stays on screen over the login page
      toast.error(t('auth.otherLogin'));
      endSession();
    }
  });
  // a payment moved the due date: the session leaves pay-only (and the banners follow) without a new login
  useSocketEvent(events.payment(user.companyId), (payload: { action?: string }) => {
    if (payload?.action === 'CONCLUIDA') {
      void onUserChanged().catch(() => undefined);
    }
  });
  useSocketEvent(events.user(user.companyId), (payload: { action?: string; user?: { id?: number } }) => {
    if (payload?.action === 'update' && payload.user?.id === user.id) {
      void onUserChanged().catch(() => undefined);
    }
  });

  return null;
};

export const useAuth = (): AuthContextValue => {
  const ctx = useContext(AuthContext);
  if (!ctx) {
    throw new Error('useAuth must be used inside <AuthProvider>');
  }

  return ctx;
};
