import { ZKanbanQuery } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { kanbanBoard } from './kanban.service';

export const kanbanRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // singular `ticket`: the ancestor's path
  r.get(
    '/api/ticket/kanban',
    {
      config: route({ auth: 'user', plan: 'useKanban' }),
      schema: {
        tags: ['kanban'],
        querystring: ZKanbanQuery,
        description:
          'Open and pending tickets by kanban lane. No lane/perLane: {tickets, count, hasMore: false} (every ' +
          'ticket). perLane=N: {lanes: [{lane: "open" | tagId, tag, tickets, count, hasMore}]}, "open" first, each ' +
          'lane its newest N cards. lane=open|tagId with pageNumber, limit (default 50): one lane page {lane, tag, ' +
          'tickets, count, hasMore}; a lane that is not a kanban tag of the company is 404 ERR_NO_TAG_FOUND.',
      },
    },
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(await kanbanBoard(ctx, request.auth, request.query)),
  );
};
