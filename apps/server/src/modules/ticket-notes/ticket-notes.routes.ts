import { ZIdParams, ZTicketNoteBody, zId } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { createTicketNote, deleteTicketNote, listTicketNotes } from './ticket-notes.service';

const ZNotesQuery = z.object({ ticketId: zId, contactId: zId });

export const ticketNotesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['ticket-notes'];
  r.get(
    '/api/ticket-notes/list',
    { config: route({ auth: 'user' }), schema: { tags, querystring: ZNotesQuery } },
    (request) => listTicketNotes(ctx, request.auth, request.query.ticketId, request.query.contactId),
  );
  r.post(
    '/api/ticket-notes',
    { config: route({ auth: 'user' }), schema: { tags, body: ZTicketNoteBody } },
    async (request, reply) => reply.status(201).send(await createTicketNote(ctx, request.auth, request.body)),
  );
  r.delete(
    '/api/ticket-notes/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteTicketNote(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
};
