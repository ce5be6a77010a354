import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { AppError } from './errors';
import { RATE_LIMITS, type TRateLimit } from './rate-limits';

type TCheck = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Applies the limits a route names in its declaration (`route({ rateLimit })`). `@fastify/rate-limit`
 * takes one limit per route, so each limit gets a counter of its own (`createRateLimit`) and one
 * pre-validation hook asks them all: the body is parsed by then, and every limit counts, even when another
 * already refused. A refusal is 429 `ERR_TOO_MANY_REQUESTS` with `Retry-After`. Must be installed after the
 * plugin and before the routes; with `RATE_LIMITS=off` nothing is installed.
 */
export const installRateLimits = (app: FastifyInstance) => {
  app.addHook('onRoute', (routeOptions) => {
    const name = routeOptions.config?.decl?.rateLimit;
    if (!name) return;
    const checks = RATE_LIMITS[name].map((limit: TRateLimit) => ({
      limit,
      check: app.createRateLimit({
        max: limit.max,
        timeWindow: limit.timeWindow,
        keyGenerator: (request) => limit.key(request) ?? '',
      }),
    }));
    const hook: preValidationAsyncHookHandler = async (request, reply) => {
      const retryAfter = await exceeded(checks, request);
      if (retryAfter === undefined) return;
      reply.header('retry-after', retryAfter);
      throw new AppError('ERR_TOO_MANY_REQUESTS', 'Too many requests, try again later');
    };
    const existing = routeOptions.preValidation;
    routeOptions.preValidation = existing ? [...(Array.isArray(existing) ? existing : [existing]), hook] : [hook];
  });
};

/** counts the request in every limit that applies; the seconds to wait when one is exceeded */
const exceeded = async (checks: { limit: TRateLimit; check: TCheck }[], request: FastifyRequest) => {
  let retryAfter: number | undefined;
  for (const { limit, check } of checks) {
    if (limit.key(request) === undefined) continue;
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) retryAfter = Math.max(retryAfter ?? 0, result.ttlInSeconds);
  }

  return retryAfter;
};
