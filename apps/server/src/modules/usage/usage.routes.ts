import { ZSubscriptionUsage } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { getSubscriptionUsage } from './usage.service';

export const usageRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // under /api/subscription: a pay-only session reaches it (http/pay-only.ts)
  r.get(
    '/api/subscription/usage',
    { config: route({ auth: 'user' }), schema: { tags: ['subscription'], response: { 200: ZSubscriptionUsage } } },
    (request) => getSubscriptionUsage(ctx, request.auth),
  );
};
