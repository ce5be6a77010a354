import { CLOUD_API_DEFAULT_GRAPH_URL, type TCloudApiConfig, V } from '@zelo/shared';
import { AppError } from '../../http/errors';
import { isAllowListedHost, OutboundError, outboundFetch } from '../../lib/outbound';

/**
 * A small client of Meta's Graph API for one phone number: bearer token, a timeout per attempt, and
 * retries with backoff on 429, 5xx, timeouts and network errors (honouring Retry-After). Graph errors
 * come back as `GraphError` with Meta's code (`error.code`, e.g. 131026, 190) and message.
 * Every request goes through lib/outbound.ts (the SSRF guard): the Graph URL must be Meta's host or one the
 * operator allowed (OUTBOUND_ALLOW_HOSTS), checked before each call; a media URL is any public address,
 * its redirects (Meta's CDN) followed hop by hop, each hop checked. A refusal is not retried.
 */

export type TGraphRetry = {
  /** attempts in all, the first included */
  attempts: number;
  /** wait before attempt 2, 3, …; the last value repeats */
  backoffMs: number[];
  /** one attempt's limit */
  timeoutMs: number;
  /** a longer Retry-After is cut to this */
  maxRetryAfterMs: number;
};

export const DEFAULT_GRAPH_RETRY: TGraphRetry = {
  attempts: 3,
  backoffMs: [500, 1000, 2000],
  timeoutMs: 10_000,
  maxRetryAfterMs: 5_000,
};

/** Graph error codes that mean "slow down": retried like a 429 */
const THROTTLE_CODES = new Set([4, 80007, 130429]);

export class GraphError extends Error {
  readonly status: number;
  /** Meta's `error.code` (0 when the answer had none: network, timeout, not JSON) */
  readonly code: number;
  readonly details?: string;
  readonly retryable: boolean;

  constructor(input: { status: number; code?: number; message: string; details?: string; retryable: boolean }) {
    super(input.message);
    this.status = input.status;
    this.code = input.code ?? 0;
    this.details = input.details;
    this.retryable = input.retryable;
  }
}

export type TGraphClient = {
  /** a JSON call on `{graphUrl}/{version}/{path}` */
  call: <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown | FormData) => Promise<T>;
  /** GET of an absolute URL (a media URL) with the bearer token: the bytes and their type */
  download: (url: string, maxBytes: number) => Promise<{ data: Buffer; mimetype: string }>;
};

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const retryAfterMs = (header: string | null) => {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);

  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
};

/** Graph's error answer `{error: {message, code, error_data: {details}}}` as a GraphError */
const errorOf = async (res: Response): Promise<GraphError> => {
  let parsed: { error?: { message?: string; code?: number; error_data?: { details?: string } } } = {};
  try {
    parsed = (await res.json()) as typeof parsed;
  } catch {
    // not JSON (a proxy's page): the status says enough
  }
  const code = typeof parsed.error?.code === 'number' ? parsed.error.code : undefined;
  const message = parsed.error?.message || `Graph API answered HTTP ${res.status}`;

  return new GraphError({
    status: res.status,
    code,
    message,
    details: parsed.error?.error_data?.details,
    retryable: res.status === 429 || res.status >= 500 || (code !== undefined && THROTTLE_CODES.has(code)),
  });
};

const networkError = (err: unknown) => {
  if (err instanceof AppError) return new GraphError({ status: 0, message: err.message, retryable: false });
  if (err instanceof OutboundError && err.tooLarge) {
    return new GraphError({ status: 0, message: 'Media too large', retryable: false });
  }

  return new GraphError({
    status: 0,
    message:
      err instanceof OutboundError && err.kind === 'timeout'
        ? 'Graph API did not answer in time'
        : `Graph API unreachable: ${String((err as Error)?.message ?? err)}`,
    retryable: true,
  });
};

const DEFAULT_GRAPH_HOST = new URL(CLOUD_API_DEFAULT_GRAPH_URL).hostname;

/** true when a Graph URL may be called: Meta's Graph host over https, or a host the operator allowed */
export const isAllowedGraphUrl = (graphUrl: string): boolean => {
  let url: URL;
  try {
    url = new URL(graphUrl);
  } catch {
    return false;
  }
  if (url.hostname === DEFAULT_GRAPH_HOST && url.protocol === 'https:' && !url.port) return true;

  return (url.protocol === 'https:' || url.protocol === 'http:') && isAllowListedHost(url.hostname);
};

/** ERR_GRAPH_URL_NOT_ALLOWED unless the Graph URL may be called */
export const assertGraphUrl = (graphUrl: string) => {
  if (!isAllowedGraphUrl(graphUrl)) {
    throw new AppError(
      'ERR_GRAPH_URL_NOT_ALLOWED',
      `The Graph API address must be ${CLOUD_API_DEFAULT_GRAPH_URL} unless the server operator allows another host`,
      [{ path: 'channelConfig.graphUrl', message: V.invalid }],
    );
  }
};

export const createGraphClient = (
  config: Pick<TCloudApiConfig, 'graphUrl' | 'graphVersion' | 'accessToken'>,
  retry: TGraphRetry = DEFAULT_GRAPH_RETRY,
): TGraphClient => {
  const base = `${config.graphUrl.replace(/\/+$/, '')}/${config.graphVersion}`;
  const auth = { authorization: `Bearer ${config.accessToken}` };

  /** runs one request with retries; `read` turns a 2xx answer into the result */
  const withRetries = async <T>(send: () => Promise<Response>, read: (res: Response) => Promise<T>) => {
    let last: GraphError | undefined;
    for (let attempt = 1; attempt <= retry.attempts; attempt++) {
      let delay: number | undefined;
      try {
        const res = await send();
        if (res.ok) return await read(res);
        last = await errorOf(res);
        delay = retryAfterMs(res.headers.get('retry-after'));
      } catch (err) {
        if (err instanceof GraphError) throw err;
        last = networkError(err);
      }
      if (!last.retryable || attempt === retry.attempts) break;
      const backoff = retry.backoffMs[Math.min(attempt - 1, retry.backoffMs.length - 1)] ?? 0;
      await wait(Math.min(Math.max(delay ?? 0, backoff), Math.max(backoff, retry.maxRetryAfterMs)));
    }
    throw last ?? new GraphError({ status: 0, message: 'Graph API call failed', retryable: false });
  };

  return {
    call: (method, path, body) =>
      withRetries(
        () => {
          // the operator's allow list may have changed since the connection was saved
          assertGraphUrl(config.graphUrl);

          return outboundFetch(`${base}/${path.replace(/^\/+/, '')}`, {
            method,
            timeoutMs: retry.timeoutMs,
            headers:
              body instanceof FormData ? auth : { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
            body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
          });
        },
        async (res) => {
          try {
            return (await res.json()) as never;
          } catch {
            throw new GraphError({
              status: res.status,
              message: 'Graph API answered something that is not JSON',
              retryable: false,
            });
          }
        },
      ),
    download: (url, maxBytes) =>
      withRetries(
        () =>
          outboundFetch(url, {
            headers: auth,
            timeoutMs: retry.timeoutMs,
            maxBytes,
            redirect: 'follow',
            maxRedirects: 3,
          }),
        async (res) => {
          const length = Number(res.headers.get('content-length'));
          if (Number.isFinite(length) && length > maxBytes) {
            throw new GraphError({
              status: res.status,
              message: `Media too large (${length} bytes)`,
              retryable: false,
            });
          }
          const data = Buffer.from(await res.arrayBuffer());
          if (data.length > maxBytes) {
            throw new GraphError({
              status: res.status,
              message: `Media too large (${data.length} bytes)`,
              retryable: false,
            });
          }

          return {
            data,
            mimetype: res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream',
          };
        },
      ),
  };
};
