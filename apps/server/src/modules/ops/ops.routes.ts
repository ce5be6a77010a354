import type { FastifyInstance } from 'fastify';
import { METRICS_PATH } from '../../http/authenticate';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import type { TDrain } from './drain';
import type { TServerMetrics } from './metrics';
import { appliedMigration, shippedMigration } from './ops.repo';

/**
 * What a load balancer, Kubernetes and Prometheus ask a node (issue 24 item 3):
 *
 * - `GET /api/health` (kept as it was) and `GET /api/health/live`: the process answers (200). Liveness stays
 *   200 while the node drains, so an orchestrator does not kill a node that is stopping on purpose.
 * - `GET /api/health/ready`: 200 when this node can serve, else 503 with the failing checks — it is draining
 *   (SIGTERM), the database does not answer within `READY_DB_TIMEOUT_MS`, the database lacks a migration this
 *   build ships, the jobs have not started where `JOBS=on`, or Redis does not answer where `REDIS_URL` is set.
 *   One small statement per probe; no tenant data in the answer.
 * - `GET /metrics`: Prometheus text (metrics.ts), with the bearer `METRICS_TOKEN`; without it the path is
 *   not found. Not in the OpenAPI document (it is not the API).
 */

const READY_DB_TIMEOUT_MS = 2_000;

type TCheck = 'ok' | 'down' | 'behind' | 'starting' | 'draining' | 'off';

const within = <T>(ms: number, work: Promise<T>): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });

export const readiness = async (
  ctx: TAppContext,
  drain: TDrain,
): Promise<{ ready: boolean; checks: Record<string, TCheck> }> => {
  const database = await within(READY_DB_TIMEOUT_MS, appliedMigration(ctx.db)).then(
    (applied) => (applied >= shippedMigration() ? 'ok' : 'behind') as TCheck,
    () => 'down' as TCheck,
  );
  const redis: TCheck = !ctx.config.redisUrl
    ? 'off'
    : (await within(READY_DB_TIMEOUT_MS, ctx.realtime.ping()).catch(() => false))
      ? 'ok'
      : 'down';
  const checks: Record<string, TCheck> = {
    http: drain.draining ? 'draining' : 'ok',
    database: database === 'behind' ? 'ok' : database,
    migrations: database === 'down' ? 'down' : database === 'behind' ? 'behind' : 'ok',
    jobs: !ctx.config.jobs ? 'off' : ctx.jobs ? 'ok' : 'starting',
    redis,
  };

  return { ready: Object.values(checks).every((c) => c === 'ok' || c === 'off'), checks };
};

export const opsRoutes = (
  app: FastifyInstance,
  ctx: TAppContext,
  deps: { drain: TDrain; metrics?: TServerMetrics; databaseKind: 'pglite' | 'postgres' },
) => {
  const health = { config: route({ auth: 'public' }), schema: { tags: ['health'] } };
  app.get('/api/health', health, async () => ({ status: 'ok', database: deps.databaseKind }));
  app.get('/api/health/live', health, async () => ({ status: 'ok' }));
  app.get('/api/health/ready', health, async (_request, reply) => {
    const { ready, checks } = await readiness(ctx, deps.drain);
    reply.header('cache-control', 'no-store');

    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unready', checks });
  });
  app.get(METRICS_PATH, { config: route({ auth: 'metrics' }), schema: { hide: true } }, async (_request, reply) => {
    const metrics = deps.metrics;
    if (!metrics) throw new AppError('ERR_ROUTE_NOT_FOUND', 'Not found');
    reply.header('cache-control', 'no-store');

    return reply.type(metrics.contentType).send(await metrics.render());
  });
};
