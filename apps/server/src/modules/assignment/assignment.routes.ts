import { ZAwayAnswer, ZAwayBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { setOwnAway } from './assignment.service';

export const assignmentRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // any user, for itself only (no id in the path): the top bar's away switch
  r.put(
    '/api/users/me/away',
    {
      config: route({ auth: 'user' }),
      schema: { tags: ['users'], body: ZAwayBody, response: { 200: ZAwayAnswer } },
    },
    (request) => setOwnAway(ctx, request.auth, request.body.away),
  );
};
