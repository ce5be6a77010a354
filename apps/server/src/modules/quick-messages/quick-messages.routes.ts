import { ZIdParams, ZListQuery, ZQuickMessageBody, ZQuickMessageUpdateBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import {
  createQuickMessage,
  deleteQuickMessage,
  getQuickMessage,
  getQuickMessagePage,
  listForComposer,
  updateQuickMessage,
} from './quick-messages.service';

export const quickMessagesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quick-messages'];
  // `companyId` and `userId` in the query (spec 1 §7) are ignored: the caller's company and the caller
  r.get('/api/quick-messages/list', { config: route({ auth: 'user' }), schema: { tags } }, (request) =>
    listForComposer(ctx, request.auth),
  );
  r.get(
    '/api/quick-messages',
    { config: route({ auth: 'user' }), schema: { tags, querystring: ZListQuery } },
    (request) => getQuickMessagePage(ctx, request.auth, request.query),
  );
  r.get(
    '/api/quick-messages/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } },
    (request) => getQuickMessage(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/quick-messages',
    { config: route({ auth: 'user' }), schema: { tags, body: ZQuickMessageBody } },
    async (request, reply) => reply.status(201).send(await createQuickMessage(ctx, request.auth, request.body)),
  );
  r.put(
    '/api/quick-messages/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams, body: ZQuickMessageUpdateBody } },
    (request) => updateQuickMessage(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/quick-messages/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteQuickMessage(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
};
