import {
  ZIdParams,
  ZIntegrationDelivery,
  ZIntegrationTestBody,
  ZListQuery,
  ZQueueIntegration,
  ZQueueIntegrationBody,
  zPageNumber,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  listDeliveries,
  listIntegrations,
  testSession,
  updateIntegration,
} from './queue-integrations.service';

/**
 * Queue integrations (spec 3 §2.4, §7; issue 14): the list answers every company's users (the connection and
 * queue dialogs read it; empty without the plan flag `useIntegrations`); the rest is for admins of a plan with
 * it. Secrets come back masked.
 */
export const queueIntegrationsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['queue integrations'];
  const config = route({ auth: 'admin', plan: 'useIntegrations' });
  r.get(
    '/api/queueIntegration',
    {
      config: route({ auth: 'user' }),
      schema: {
        tags,
        querystring: ZListQuery,
        response: {
          200: z.object({ queueIntegrations: z.array(ZQueueIntegration), count: z.number(), hasMore: z.boolean() }),
        },
      },
    },
    (request) => listIntegrations(ctx, request.auth, request.query),
  );
  r.post('/api/queueIntegration/testSession', { config, schema: { tags, body: ZIntegrationTestBody } }, (request) =>
    testSession(ctx, request.auth, request.body),
  );
  r.get('/api/queueIntegration/:id', { config, schema: { tags, params: ZIdParams } }, (request) =>
    getIntegration(ctx, request.auth, request.params.id),
  );
  r.get(
    '/api/queueIntegration/:id/deliveries',
    {
      config,
      schema: {
        tags,
        params: ZIdParams,
        querystring: z.object({ pageNumber: zPageNumber }),
        response: {
          200: z.object({ deliveries: z.array(ZIntegrationDelivery), count: z.number(), hasMore: z.boolean() }),
        },
      },
    },
    (request) => listDeliveries(ctx, request.auth, request.params.id, request.query.pageNumber),
  );
  r.post('/api/queueIntegration', { config, schema: { tags, body: ZQueueIntegrationBody } }, async (request, reply) =>
    reply.status(201).send(await createIntegration(ctx, request.auth, request.body)),
  );
  r.put(
    '/api/queueIntegration/:id',
    { config, schema: { tags, params: ZIdParams, body: ZQueueIntegrationBody } },
    (request) => updateIntegration(ctx, request.auth, request.params.id, request.body),
  );
  r.delete('/api/queueIntegration/:id', { config, schema: { tags, params: ZIdParams } }, (request) =>
    deleteIntegration(ctx, request.auth, request.params.id),
  );
};
