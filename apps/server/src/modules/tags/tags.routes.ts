import { ZIdParams, ZListQuery, ZTagBody, ZTagsSyncBody, ZTagUpdateBody, zId } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import {
  addTagToTicket,
  createTag,
  deleteTag,
  getTag,
  getTagPage,
  listKanbanTags,
  listTags,
  removeTicketKanbanTags,
  syncTicketTags,
  updateTag,
} from './tags.service';

const ZTicketParams = z.object({ ticketId: zId });
const ZTicketTagParams = z.object({ ticketId: zId, tagId: zId });

export const tagsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tags'];
  // `companyId` in the query is ignored: always the caller's company
  r.get('/api/tags/list', { config: route({ auth: 'user' }), schema: { tags } }, (request) =>
    listTags(ctx, request.auth),
  );
  r.get('/api/tags/kanban', { config: route({ auth: 'user', plan: 'useKanban' }), schema: { tags } }, (request) =>
    listKanbanTags(ctx, request.auth),
  );
  r.get('/api/tags', { config: route({ auth: 'user' }), schema: { tags, querystring: ZListQuery } }, (request) =>
    getTagPage(ctx, request.auth, request.query),
  );
  r.get('/api/tags/:id', { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } }, (request) =>
    getTag(ctx, request.auth, request.params.id),
  );
  r.post('/api/tags', { config: route({ auth: 'user' }), schema: { tags, body: ZTagBody } }, async (request, reply) =>
    reply.status(201).send(await createTag(ctx, request.auth, request.body)),
  );
  r.put(
    '/api/tags/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams, body: ZTagUpdateBody } },
    (request) => updateTag(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/tags/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteTag(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
  r.post('/api/tags/sync', { config: route({ auth: 'user' }), schema: { tags, body: ZTagsSyncBody } }, (request) =>
    syncTicketTags(
      ctx,
      request.auth,
      request.body.ticketId,
      request.body.tags.map((t) => t.id),
    ),
  );
  r.put(
    '/api/ticket-tags/:ticketId/:tagId',
    { config: route({ auth: 'user' }), schema: { tags, params: ZTicketTagParams } },
    (request) => addTagToTicket(ctx, request.auth, request.params.ticketId, request.params.tagId),
  );
  r.delete(
    '/api/ticket-tags/:ticketId',
    { config: route({ auth: 'user' }), schema: { tags, params: ZTicketParams } },
    (request) => removeTicketKanbanTags(ctx, request.auth, request.params.ticketId),
  );
};
