import { ZHelp, ZHelpBody, ZIdParams } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { createHelp, deleteHelp, getHelp, getHelps, updateHelp } from './helps.service';

export const helpsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['helps'];
  const list = { config: route({ auth: 'user' }), schema: { tags, response: { 200: z.array(ZHelp) } } };
  r.get('/api/helps', list, () => getHelps(ctx));
  r.get('/api/helps/list', list, () => getHelps(ctx));
  r.get('/api/helps/:id', { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } }, (request) =>
    getHelp(ctx, request.params.id),
  );
  r.post(
    '/api/helps',
    { config: route({ auth: 'super' }), schema: { tags, body: ZHelpBody } },
    async (request, reply) => reply.status(201).send(await createHelp(ctx, request.body)),
  );
  r.put(
    '/api/helps/:id',
    { config: route({ auth: 'super' }), schema: { tags, params: ZIdParams, body: ZHelpBody } },
    (request) => updateHelp(ctx, request.params.id, request.body),
  );
  r.delete(
    '/api/helps/:id',
    { config: route({ auth: 'super' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteHelp(ctx, request.params.id);

      return reply.status(204).send();
    },
  );
};
