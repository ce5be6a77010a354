import { zEmail } from '@zelo/shared';
import type { FastifyRequest } from 'fastify';
import { tokenBucket } from '../modules/messages-api/token-bucket';

/**
 * Every rate limit of the API, in one place (STYLE §8). A route names one entry; each entry is a list of
 * limits and a request must pass all of them (`http/rate-limit-hook.ts`).
 *
 * - Per account: keyed on the e-mail as the route's schema reads it (`zEmail`: trimmed, lower-cased), so
 *   `" User@x.com\t"` and `"user@x.com"` share one bucket whatever the IP. An e-mail the schema refuses is
 *   answered 400 and checks nothing, so it counts only per IP.
 * - Per IP, across e-mails: a cap on guessing many accounts from one place, high enough for an office of
 *   50 agents behind one NAT logging in at the start of a shift (100 logins a minute).
 * - Failures (`FAILURE_LIMITS`, login only): counted on wrong passwords alone, so that guessing cannot lock the
 *   owner out (OWASP ASVS 2.2.1). The guessing source (e-mail + IP) is refused after 10 failures a minute; past
 *   100 failures an hour on one account from anywhere, each source gets one failure an hour on it. The right
 *   password from a source that has not failed on the account is always checked.
 *
 * Counters live in this process (no shared store): behind a load balancer each node counts its own share.
 */
type TKey = (request: FastifyRequest) => string | undefined;
export type TRateLimit = { max: number; timeWindow: string; key: TKey };

/** the e-mail a request names (body or path), normalised by the shared schema; undefined when it is not one */
export const requestEmail = (request: FastifyRequest) => {
  const body = request.body as { email?: unknown } | null | undefined;
  const params = request.params as { email?: unknown } | undefined;
  const parsed = zEmail().safeParse(body?.email ?? params?.email);

  return parsed.success ? parsed.data : undefined;
};

const perAccount = (max: number, timeWindow: string): TRateLimit => ({
  max,
  timeWindow,
  key: (request) => {
    const email = requestEmail(request);

    return email === undefined ? undefined : `email|${email}`;
  },
});
const perAccountAndIp: TKey = (request) => {
  const email = requestEmail(request);

  return email === undefined ? undefined : `email|${email}|ip|${request.ip}`;
};
const perIp = (max: number, timeWindow: string): TRateLimit => ({
  max,
  timeWindow,
  key: (request) => `ip|${request.ip}`,
});

export const RATE_LIMITS = {
  /** every attempt, across e-mails (a password spray from one place); the failures are FAILURE_LIMITS.login */
  login: [perIp(100, '1 minute')],
  refresh: [perIp(60, '1 minute')],
  signUp: [perAccount(3, '1 hour'), perIp(5, '1 hour')],
  forgotPassword: [perAccount(5, '15 minutes'), perIp(20, '15 minutes')],
  resetPassword: [perAccount(10, '15 minutes'), perIp(30, '15 minutes')],
  /** Meta's deliveries to one connection's webhook: bursts of hundreds a second (statuses ×3 + inbound) */
  cloudApiWebhook: [
    {
      max: 3000,
      timeWindow: '10 seconds',
      key: (request) =>
        `${request.ip}|${(request.params as { connectionId?: unknown } | undefined)?.connectionId ?? ''}`,
    },
  ],
  /**
   * the external messages API, per connection token (its hash: http/rate-limit-hook.ts runs after the token
   * check, so only known tokens count): a steady 2 a second with bursts, what one integration needs; bulk
   * sending is the campaigns' job
   */
  externalApi: [{ max: 120, timeWindow: '1 minute', key: (request) => tokenBucket(request) }],
} satisfies Record<string, TRateLimit[]>;

export type TRateLimitName = keyof typeof RATE_LIMITS;

/**
 * A limit on failed attempts (the route's answer is 401): refuses once `max` failures are counted under its key
 * within `windowMs`, and counts nothing else. With `onlyPast`, it applies only while that wider count (counted on
 * the same failures) is reached.
 */
export type TFailureLimit = {
  max: number;
  windowMs: number;
  key: TKey;
  onlyPast?: { max: number; windowMs: number; key: TKey };
};

const MINUTE = 60_000;
const perAccountAnywhere: TKey = (request) => {
  const email = requestEmail(request);

  return email === undefined ? undefined : `email|${email}`;
};

export const FAILURE_LIMITS: Partial<Record<TRateLimitName, TFailureLimit[]>> = {
  login: [
    // the source that guesses: 10 wrong passwords a minute on one account from one IP
    { max: 10, windowMs: MINUTE, key: perAccountAndIp },
    // many sources on one account (a botnet): past 100 failures an hour, one failure an hour per source
    {
      max: 1,
      windowMs: 60 * MINUTE,
      key: perAccountAndIp,
      onlyPast: { max: 100, windowMs: 60 * MINUTE, key: perAccountAnywhere },
    },
  ],
};
