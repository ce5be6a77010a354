import { ZFailedDeliveryCounts, ZFailedDeliveryPage, ZFailedDeliveryRetry, ZIdParams, zPageNumber } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import {
  discardFailedDelivery,
  getFailedDeliveries,
  getFailedDeliveryCounts,
  retryFailedDelivery,
} from './failed-deliveries.service';

const ZPageQuery = z.object({ pageNumber: zPageNumber });

export const failedDeliveriesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['failed-deliveries'];
  r.get(
    '/api/failed-deliveries',
    {
      config: route({ auth: 'admin' }),
      schema: { tags, querystring: ZPageQuery, response: { 200: ZFailedDeliveryPage } },
    },
    (request) => getFailedDeliveries(ctx, request.auth, request.query),
  );
  // the super user sees how many each company has, never their contents
  r.get(
    '/api/failed-deliveries/counts',
    { config: route({ auth: 'super' }), schema: { tags, response: { 200: ZFailedDeliveryCounts } } },
    () => getFailedDeliveryCounts(ctx),
  );
  r.post(
    '/api/failed-deliveries/:id/retry',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams, response: { 200: ZFailedDeliveryRetry } } },
    (request) => retryFailedDelivery(ctx, request.auth, request.params.id),
  );
  r.delete(
    '/api/failed-deliveries/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await discardFailedDelivery(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
};
