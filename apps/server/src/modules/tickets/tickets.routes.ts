import { ZCreateTicketBody, ZIdParams, ZTicketListQuery, ZUpdateTicketBody } from '@zelo/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import { toErrorAnswer } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import {
  createTicket,
  deleteTicket,
  listTickets,
  OtherOpenTicketError,
  showTicket,
  showTicketByUuid,
  updateTicket,
} from './tickets.service';

/** ERR_OTHER_OPEN_TICKET also carries the ticket that holds the contact (its user and queue) */
const withHolder = async <T>(reply: FastifyReply, run: () => Promise<T>) => {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof OtherOpenTicketError)) throw err;
    const answer = toErrorAnswer(err);

    return reply.status(answer.status).send({ ...answer.body, ticket: err.ticket });
  }
};

export const ticketsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['tickets'];
  r.get(
    '/api/tickets',
    { config: route({ auth: 'user' }), schema: { tags, querystring: ZTicketListQuery } },
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(await listTickets(ctx, request.auth, request.query)),
  );
  r.get(
    '/api/tickets/u/:uuid',
    { config: route({ auth: 'user' }), schema: { tags, params: z.object({ uuid: z.string().max(64) }) } },
    (request) => showTicketByUuid(ctx, request.auth, request.params.uuid),
  );
  r.get('/api/tickets/:id', { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } }, (request) =>
    showTicket(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/tickets',
    { config: route({ auth: 'user' }), schema: { tags, body: ZCreateTicketBody } },
    (request, reply) =>
      withHolder(reply, async () => {
        const { created, ticket } = await createTicket(ctx, request.auth, request.body);

        return reply.status(created ? 201 : 200).send(ticket);
      }),
  );
  r.put(
    '/api/tickets/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams, body: ZUpdateTicketBody } },
    (request, reply) => withHolder(reply, () => updateTicket(ctx, request.auth, request.params.id, request.body)),
  );
  r.delete(
    '/api/tickets/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteTicket(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
};
