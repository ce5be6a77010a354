import { ZConnectionBody, ZConnectionQuery, ZConnectionUpdateBody, ZIdParams, ZPairingBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { requestPairingCode } from './pairing';
import {
  createConnection,
  deleteConnection,
  endSession,
  getConnection,
  listConnections,
  renewSession,
  startSession,
  updateConnection,
} from './connections.service';

export const connectionsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['connections'];
  r.get(
    '/api/whatsapp',
    { config: route({ auth: 'user' }), schema: { tags, querystring: ZConnectionQuery } },
    (request) => listConnections(ctx, request.auth),
  );
  r.get(
    '/api/whatsapp/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams, querystring: ZConnectionQuery } },
    (request) => getConnection(ctx, request.auth, request.params.id, request.query.session === '0'),
  );
  r.post(
    '/api/whatsapp',
    { config: route({ auth: 'admin' }), schema: { tags, body: ZConnectionBody } },
    async (request, reply) => reply.status(201).send(await createConnection(ctx, request.auth, request.body)),
  );
  r.put(
    '/api/whatsapp/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams, body: ZConnectionUpdateBody } },
    (request) => updateConnection(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/whatsapp/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteConnection(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );

  // the connections page's session buttons: try again, new QR, disconnect
  r.post(
    '/api/whatsappsession/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    (request) => startSession(ctx, request.auth, request.params.id),
  );
  r.put(
    '/api/whatsappsession/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    (request) => renewSession(ctx, request.auth, request.params.id),
  );
  // WhatsApp Web: pair by phone-number code (answers the code; status PAIRING)
  r.post(
    '/api/whatsappsession/:id/pairing',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams, body: ZPairingBody } },
    (request) => requestPairingCode(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/whatsappsession/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    (request) => endSession(ctx, request.auth, request.params.id),
  );
};
