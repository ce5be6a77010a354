import { zId, ZIdParams, ZListQuery, ZSetLanguageParams, ZUserBody, ZUserUpdateBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import {
  createUser,
  deleteUser,
  getUser,
  getUserPage,
  getCompanyUsers,
  getUsersBrief,
  setLanguage,
  updateUser,
} from './users.service';

export const usersRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];
  // any user: an attendant's transfer dialog searches the company's users here (the ancestor's
  // TransferTicketModalCustom; a 403 ended its session) and reads names and queues only
  r.get('/api/users', { config: route({ auth: 'user' }), schema: { tags, querystring: ZListQuery } }, (request) =>
    getUserPage(ctx, request.auth, request.query),
  );
  r.get(
    '/api/users/list',
    { config: route({ auth: 'user' }), schema: { tags, querystring: z.object({ companyId: zId.optional() }) } },
    (request) =>
      request.query.companyId === undefined
        ? getUsersBrief(ctx, request.auth)
        : getCompanyUsers(ctx, request.auth, request.query.companyId),
  );
  r.get('/api/users/:id', { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } }, (request) =>
    getUser(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/users',
    { config: route({ auth: 'admin' }), schema: { tags, body: ZUserBody } },
    async (request, reply) => reply.status(201).send(await createUser(ctx, request.auth, request.body)),
  );
  r.put(
    '/api/users/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams, body: ZUserUpdateBody } },
    (request) => updateUser(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/users/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteUser(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
  r.post(
    '/api/users/set-language/:lang',
    { config: route({ auth: 'user', allowExpired: true }), schema: { tags, params: ZSetLanguageParams } },
    (request) => setLanguage(ctx, request.auth, request.params.lang),
  );
};
