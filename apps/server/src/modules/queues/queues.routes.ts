import { ZIdParams, ZQueueCreateBody, ZQueueUpdateBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { createQueue, deleteQueue, getQueue, listQueues, updateQueue } from './queues.service';

export const queuesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['queues'];
  // `companyId` in the query (spec 1 §7) is ignored: always the caller's company
  r.get('/api/queue', { config: route({ auth: 'user' }), schema: { tags } }, (request) =>
    listQueues(ctx, request.auth),
  );
  r.get('/api/queue/:id', { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } }, (request) =>
    getQueue(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/queue',
    { config: route({ auth: 'admin' }), schema: { tags, body: ZQueueCreateBody } },
    async (request, reply) => reply.status(201).send(await createQueue(ctx, request.auth, request.body)),
  );
  r.put(
    '/api/queue/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams, body: ZQueueUpdateBody } },
    (request) => updateQueue(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/queue/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteQueue(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
};
