import { ZIdParams, ZQueueOptionBody, ZQueueOptionQuery, ZQueueOptionUpdateBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import {
  createQueueOption,
  deleteQueueOption,
  getQueueOption,
  listQueueOptions,
  updateQueueOption,
} from './queue-options.service';

export const queueOptionsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['queues'];
  r.get(
    '/api/queue-options',
    { config: route({ auth: 'user' }), schema: { tags, querystring: ZQueueOptionQuery } },
    (request) => listQueueOptions(ctx, request.auth, request.query),
  );
  r.get('/api/queue-options/:id', { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } }, (request) =>
    getQueueOption(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/queue-options',
    { config: route({ auth: 'admin' }), schema: { tags, body: ZQueueOptionBody } },
    async (request, reply) => reply.status(201).send(await createQueueOption(ctx, request.auth, request.body)),
  );
  r.put(
    '/api/queue-options/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams, body: ZQueueOptionUpdateBody } },
    (request) => updateQueueOption(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/queue-options/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteQueueOption(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
};
