import { ZChannelWindow, zId } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SIGNATURE_HEADER } from '../../channels/cloud-api/signature';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { loadViewer, assertCanSee } from '../tickets/ticket-access';
import { findTicketPlain } from '../tickets/tickets.repo';
import { channelWindowOf } from './service-window';
import { createWebhookService } from './webhook.service';

const ZConnectionParams = z.object({ connectionId: zId });
const ZVerifyQuery = z.object({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(1000).optional(),
  'hub.challenge': z.string().max(500).optional(),
});

/** the largest webhook Meta sends is far below this */
const WEBHOOK_BODY_LIMIT = 3 * 1024 * 1024;

export const cloudApiRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const webhook = createWebhookService(ctx);
  const path = '/api/channels/cloud-api/:connectionId/webhook';
  const tags = ['cloud-api'];

  // the signature covers the raw bytes: JSON is read as a buffer in this scope only
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.get(
      path,
      {
        config: route({ auth: 'public', rateLimit: 'cloudApiWebhook' }),
        schema: { tags, params: ZConnectionParams, querystring: ZVerifyQuery },
      },
      async (request, reply) => {
        const challenge = await webhook.verify(request.params.connectionId, {
          mode: request.query['hub.mode'],
          token: request.query['hub.verify_token'],
          challenge: request.query['hub.challenge'],
        });

        return reply.type('text/plain; charset=utf-8').send(challenge);
      },
    );
    r.post(
      path,
      {
        // Meta's delivery: raw bytes (checked against the signature), channel text cleaned where it is stored
        config: route({ auth: 'public', rateLimit: 'cloudApiWebhook', channelText: true }),
        schema: { tags, params: ZConnectionParams },
      },
      async (request, reply) => {
        await webhook.receive(request.params.connectionId, request.body, request.headers[SIGNATURE_HEADER]);

        return reply.status(200).send({ received: true });
      },
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/tickets/:ticketId/window',
    {
      config: route({ auth: 'user' }),
      schema: { tags, params: z.object({ ticketId: zId }), response: { 200: ZChannelWindow } },
    },
    async (request) => {
      const { companyId } = request.auth;
      const ticket = await findTicketPlain(ctx.db, companyId, request.params.ticketId);
      if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
      // who may see the ticket may see its window (the tickets module's rule)
      assertCanSee(await loadViewer(ctx.db, request.auth), ticket);

      return channelWindowOf(ctx.db, ticket);
    },
  );
};
