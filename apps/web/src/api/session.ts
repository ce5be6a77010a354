import type { TAuthResponse } from '@zelo/shared';

/** localStorage keys of the session (spec 1 §4). */
export const STORAGE_KEYS = {
  token: 'token',
  companyId: 'companyId',
  userId: 'userId',
  campaignsFlag: 'cshow',
} as const;

export const getToken = (): string | null => localStorage.getItem(STORAGE_KEYS.token);

export const setToken = (token: string) => localStorage.setItem(STORAGE_KEYS.token, token);

/** Stores what a login or a refresh answers: token, company id, user id and the campaigns flag. */
export const storeSession = ({ token, user }: TAuthResponse) => {
  setToken(token);
  localStorage.setItem(STORAGE_KEYS.companyId, String(user.companyId));
  localStorage.setItem(STORAGE_KEYS.userId, String(user.id));
  const campaigns = user.company.settings.find((s) => s.key === 'campaignsEnabled');
  if (campaigns?.value === 'true') {
    localStorage.setItem(STORAGE_KEYS.campaignsFlag, 'true');
  } else {
    localStorage.removeItem(STORAGE_KEYS.campaignsFlag);
  }
};

export const clearSession = () => {
  for (const key of Object.values(STORAGE_KEYS)) {
    localStorage.removeItem(key);
  }
};

type SessionListener = () => void;
const endedListeners = new Set<SessionListener>();

/** The auth context subscribes here; the http client and the socket call `endSession` when the session is over. */
export const onSessionEnded = (listener: SessionListener) => {
  endedListeners.add(listener);

  return () => {
    endedListeners.delete(listener);
  };
};

export const endSession = () => {
  clearSession();
  if (endedListeners.size === 0) {
    if (window.location.pathname !== '/login') {
      window.location.assign('/login');
    }

    return;
  }
  for (const listener of endedListeners) {
    listener();
  }
};
