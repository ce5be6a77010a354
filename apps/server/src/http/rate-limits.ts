import type { FastifyRequest } from 'fastify';

/** Every rate limit of the API, in one place (STYLE §8). Keyed by IP, plus the e-mail where one is sent. */
const byIpAndEmail = (request: FastifyRequest) => {
  const body = request.body as { email?: unknown } | undefined;
  const params = request.params as { email?: unknown } | undefined;
  const email = typeof body?.email === 'string' ? body.email : typeof params?.email === 'string' ? params.email : '';

  return `${request.ip}|${email.toLowerCase()}`;
};

/** the e-mail may be in the body: count after it is parsed (the default onRequest hook runs before) */
const perEmail = { keyGenerator: byIpAndEmail, hook: 'preValidation' } as const;

export const RATE_LIMITS = {
  login: { max: 10, timeWindow: '1 minute', ...perEmail },
  refresh: { max: 60, timeWindow: '1 minute' },
  signUp: { max: 5, timeWindow: '1 hour' },
  forgotPassword: { max: 5, timeWindow: '15 minutes', ...perEmail },
  resetPassword: { max: 10, timeWindow: '15 minutes', ...perEmail },
  /** Meta's deliveries to one connection's webhook: bursts of hundreds a second (statuses ×3 + inbound) */
  cloudApiWebhook: {
    max: 3000,
    timeWindow: '10 seconds',
    keyGenerator: (request: FastifyRequest) =>
      `${request.ip}|${(request.params as { connectionId?: unknown } | undefined)?.connectionId ?? ''}`,
  },
} as const;

export type TRateLimitName = keyof typeof RATE_LIMITS;
