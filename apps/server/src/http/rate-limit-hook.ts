import type {
  FastifyInstance,
  FastifyRequest,
  onResponseAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import { AppError } from './errors';
import { createFailureCounts, type TFailureCounts } from './failure-counts';
import { FAILURE_LIMITS, RATE_LIMITS, type TFailureLimit, type TRateLimit } from './rate-limits';

type TCheck = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Applies the limits a route names in its declaration (`route({ rateLimit })`). `@fastify/rate-limit`
 * takes one limit per route, so each limit gets a counter of its own (`createRateLimit`) and one
 * pre-validation hook asks them all: the body is parsed by then, and every limit counts, even when another
 * already refused. The route's failure limits (`FAILURE_LIMITS`) are read in the same hook and counted when the
 * answer is a 401. A refusal is 429 `ERR_TOO_MANY_REQUESTS` with `Retry-After`. Must be installed after the
 * plugin and before the routes; with `RATE_LIMITS=off` nothing is installed.
 */
export const installRateLimits = (app: FastifyInstance) => {
  const failures = createFailureCounts();
  app.addHook('onRoute', (routeOptions) => {
    const name = routeOptions.config?.decl?.rateLimit;
    if (!name) return;
    const failureLimits = (FAILURE_LIMITS[name] ?? []).map((limit, i) => ({ limit, scope: `${name}#${i}` }));
    const checks = RATE_LIMITS[name].map((limit: TRateLimit) => ({
      limit,
      check: app.createRateLimit({
        max: limit.max,
        timeWindow: limit.timeWindow,
        keyGenerator: (request) => limit.key(request) ?? '',
      }),
    }));
    const hook: preValidationAsyncHookHandler = async (request, reply) => {
      const counted = await exceeded(checks, request);
      const failed = failedTooOften(failures, failureLimits, request);
      const retryAfter =
        counted === undefined && failed === undefined ? undefined : Math.max(counted ?? 0, failed ?? 0);
      if (retryAfter === undefined) return;
      reply.header('retry-after', retryAfter);
      throw new AppError('ERR_TOO_MANY_REQUESTS', 'Too many requests, try again later');
    };
    const existing = routeOptions.preValidation;
    routeOptions.preValidation = existing ? [...(Array.isArray(existing) ? existing : [existing]), hook] : [hook];
    if (failureLimits.length === 0) return;
    const countFailure: onResponseAsyncHookHandler = async (request, reply) => {
      if (reply.statusCode === 401) addFailure(failures, failureLimits, request);
    };
    const after = routeOptions.onResponse;
    routeOptions.onResponse = after ? [...(Array.isArray(after) ? after : [after]), countFailure] : [countFailure];
  });
};

type TScopedFailureLimit = { limit: TFailureLimit; scope: string };

/** the seconds to wait when a failure limit that applies is reached (reading counts nothing) */
const failedTooOften = (failures: TFailureCounts, limits: TScopedFailureLimit[], request: FastifyRequest) => {
  let retryAfter: number | undefined;
  for (const { limit, scope } of limits) {
    const key = limit.key(request);
    if (key === undefined) continue;
    if (limit.onlyPast) {
      const wider = limit.onlyPast.key(request);
      if (wider === undefined || failures.count(`${scope}>${wider}`) < limit.onlyPast.max) continue;
    }
    if (failures.count(`${scope}:${key}`) >= limit.max) {
      retryAfter = Math.max(retryAfter ?? 0, failures.retryAfter(`${scope}:${key}`));
    }
  }

  return retryAfter;
};

const addFailure = (failures: TFailureCounts, limits: TScopedFailureLimit[], request: FastifyRequest) => {
  for (const { limit, scope } of limits) {
    const key = limit.key(request);
    if (key !== undefined) failures.add(`${scope}:${key}`, limit.windowMs);
    const wider = limit.onlyPast?.key(request);
    if (limit.onlyPast && wider !== undefined) failures.add(`${scope}>${wider}`, limit.onlyPast.windowMs);
  }
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
