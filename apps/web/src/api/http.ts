import type { TAuthResponse } from '@zelo/shared';
import { endSession, getToken, storeSession } from './session';

const BASE = '/api';

export type ApiErrorDetail = { path: string; message: string };

export class ApiError extends Error {
  status: number;
  code: string;
  details?: ApiErrorDetail[];
  /** the whole error body, for fields beyond error/message/details (e.g. a due date) */
  body?: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    details?: ApiErrorDetail[],
    body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.body = body;
  }
}

type Params = Record<string, unknown>;
/** `headers`: extra request headers (a secret typed in a form travels there, never in the URL) */
type RequestInit = {
  method: string;
  url: string;
  body?: unknown;
  params?: Params;
  headers?: Record<string, string>;
  /** answer the body as a file (`TDownload`) rather than parsed JSON */
  asFile?: boolean;
};

/** a file the API answered: its bytes and the name its Content-Disposition gives (null without one) */
export type TDownload = { blob: Blob; fileName: string | null };

/** the file name of a Content-Disposition header: `filename*=UTF-8''…` first, else `filename="…"` */
export const fileNameOf = (disposition: string | null): string | null => {
  if (!disposition) {
    return null;
  }
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // a malformed escape: fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(disposition);
  const name = (plain?.[1] ?? plain?.[2] ?? '').trim();

  return name || null;
};

export const buildUrl = (url: string, params?: Params) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null) {
      continue;
    }
    if (Array.isArray(value)) {
      for (const v of value) {
        search.append(key, String(v));
      }
    } else {
      search.append(key, String(value));
    }
  }
  const query = search.toString();
  const separator = url.includes('?') ? '&' : '?';

  return `${BASE}${url}${query ? `${separator}${query}` : ''}`;
};

const parseBody = async (res: Response): Promise<unknown> => {
  if (res.status === 204) {
    return undefined;
  }
  const text = await res.text();
  if (!text) {
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const toApiError = (status: number, body: unknown): ApiError => {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const code = typeof b.error === 'string' ? b.error : `ERR_HTTP_${status}`;
    const message = typeof b.message === 'string' ? b.message : code;

    return new ApiError(status, code, message, b.details as ApiErrorDetail[] | undefined, b);
  }
  const message = typeof body === 'string' && body ? body : `HTTP ${status}`;

  return new ApiError(status, `ERR_HTTP_${status}`, message);
};

/** One fetch; returns the parsed body or throws an ApiError (status 0, ERR_NETWORK when the server is unreachable). */
const rawRequest = async (req: RequestInit, token: string | null): Promise<unknown> => {
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  let body: BodyInit | undefined;
  if (req.body instanceof FormData) {
    body = req.body;
  } else if (req.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(req.url, req.params), { method: req.method, headers, body, credentials: 'include' });
  } catch (err) {
    throw new ApiError(0, 'ERR_NETWORK', err instanceof Error ? err.message : 'Network error');
  }
  if (res.ok && req.asFile) {
    return { blob: await res.blob(), fileName: fileNameOf(res.headers.get('content-disposition')) } as TDownload;
  }
  const data = await parseBody(res);
  if (!res.ok) {
    throw toApiError(res.status, data);
  }

  return data;
};

type RefreshListener = (auth: TAuthResponse) => void;
const refreshListeners = new Set<RefreshListener>();

/** The auth context listens here to keep its user in step with every token refresh. */
export const onTokenRefreshed = (listener: RefreshListener) => {
  refreshListeners.add(listener);

  return () => {
    refreshListeners.delete(listener);
  };
};

let refreshing: Promise<TAuthResponse> | null = null;

/**
 * POST /auth/refresh_token (the refresh token is the httpOnly cookie). Concurrent callers share one
 * request; requests started meanwhile wait for it (see `request`).
 */
export const refreshAccessToken = (): Promise<TAuthResponse> => {
  if (!refreshing) {
    refreshing = (rawRequest({ method: 'POST', url: '/auth/refresh_token' }, null) as Promise<TAuthResponse>)
      .then((auth) => {
        storeSession(auth);
        for (const listener of refreshListeners) {
          listener(auth);
        }

        return auth;
      })
      .finally(() => {
        refreshing = null;
      });
  }

  return refreshing;
};

type ExpiredListener = (err: ApiError) => void;
const expiredListeners = new Set<ExpiredListener>();

/**
 * A request of a signed-in user answered 402 ERR_SUBSCRIPTION_EXPIRED: the company fell due while the session
 * was open. The auth context listens here and refreshes the session, which turns it pay-only (an admin) or
 * ends it (an attendant, whose refresh is refused).
 */
export const onSubscriptionExpired = (listener: ExpiredListener) => {
  expiredListeners.add(listener);

  return () => {
    expiredListeners.delete(listener);
  };
};

const isSubscriptionExpired = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.status === 402 && err.code === 'ERR_SUBSCRIPTION_EXPIRED';

const isSessionExpired = (err: unknown) =>
  err instanceof ApiError && err.status === 403 && err.code === 'ERR_SESSION_EXPIRED';

/**
 * Session rules (docs/api-foundation.md): 403 ERR_SESSION_EXPIRED → one refresh, then one retry;
 * 401, a failed refresh, or a 403 ERR_SESSION_EXPIRED after the retry → the session ends.
 * Only requests that carried a token can end the session (a failed login is a plain error).
 */
const request = async <T>(req: RequestInit): Promise<T> => {
  if (refreshing) {
    await refreshing.catch(() => undefined);
  }
  const token = getToken();
  try {
    return (await rawRequest(req, token)) as T;
  } catch (err) {
    if (!token || !(err instanceof ApiError)) {
      throw err;
    }
    if (err.status === 401) {
      endSession();
      throw err;
    }
    if (isSubscriptionExpired(err)) {
      for (const listener of expiredListeners) {
        listener(err);
      }
    }
    if (!isSessionExpired(err)) {
      throw err;
    }
  }
  try {
    await refreshAccessToken();
  } catch (refreshErr) {
    endSession();
    throw refreshErr;
  }
  try {
    return (await rawRequest(req, getToken())) as T;
  } catch (retryErr) {
    if (retryErr instanceof ApiError && (retryErr.status === 401 || isSessionExpired(retryErr))) {
      endSession();
    }
    throw retryErr;
  }
};

export const api = {
  get: <T>(url: string, opts?: { params?: Params; headers?: Record<string, string> }) =>
    request<T>({ method: 'GET', url, params: opts?.params, headers: opts?.headers }),
  post: <T>(url: string, body?: unknown) => request<T>({ method: 'POST', url, body }),
  put: <T>(url: string, body?: unknown) => request<T>({ method: 'PUT', url, body }),
  delete: <T>(url: string) => request<T>({ method: 'DELETE', url }),
  upload: <T>(url: string, formData: FormData) => request<T>({ method: 'POST', url, body: formData }),
  /** a GET answered with a file (an export), under the same session rules as every request */
  download: (url: string, opts?: { params?: Params }) =>
    request<TDownload>({ method: 'GET', url, params: opts?.params, headers: { Accept: '*/*' }, asFile: true }),
};
