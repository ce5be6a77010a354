import { ZIdParams, ZListQuery, ZPlan, ZPlanBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { createPlan, deletePlan, getAllPlans, getPlan, getPlanPage, updatePlan } from './plans.service';

export const plansRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['plans'];
  r.get(
    '/api/plans/list',
    { config: route({ auth: 'public' }), schema: { tags, response: { 200: z.array(ZPlan) } } },
    () => getAllPlans(ctx),
  );
  // the ancestor's sign-up page reads its plan list here, logged out: the same public answer as /plans/list
  r.get(
    '/api/plans/all',
    { config: route({ auth: 'public' }), schema: { tags, response: { 200: z.array(ZPlan) } } },
    () => getAllPlans(ctx),
  );
  r.get('/api/plans', { config: route({ auth: 'super' }), schema: { tags, querystring: ZListQuery } }, (request) =>
    getPlanPage(ctx, request.query),
  );
  // any signed-in user reads a plan (the ancestor's Pay wizard loads the company's plan; the list is public)
  r.get('/api/plans/:id', { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } }, (request) =>
    getPlan(ctx, request.params.id),
  );
  r.post(
    '/api/plans',
    { config: route({ auth: 'super' }), schema: { tags, body: ZPlanBody } },
    async (request, reply) => reply.status(201).send(await createPlan(ctx, request.body)),
  );
  r.put(
    '/api/plans/:id',
    { config: route({ auth: 'super' }), schema: { tags, params: ZIdParams, body: ZPlanBody } },
    (request) => updatePlan(ctx, request.params.id, request.body),
  );
  r.delete(
    '/api/plans/:id',
    { config: route({ auth: 'super' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deletePlan(ctx, request.params.id);

      return reply.status(204).send();
    },
  );
};
