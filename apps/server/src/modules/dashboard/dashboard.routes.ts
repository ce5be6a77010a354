import { ZDashboardChartQuery, ZDashboardQuery } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { getDashboard, getTicketsDay, getTicketsUsers } from './dashboard.service';

const JSON_TYPE = 'application/json; charset=utf-8';

/** spec 1 §7: the dashboard and its two charts; admins only, always the caller's company (`companyId` ignored) */
export const dashboardRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['dashboard'];
  r.get(
    '/api/dashboard',
    { config: route({ auth: 'admin' }), schema: { tags, querystring: ZDashboardQuery } },
    async (request, reply) => reply.type(JSON_TYPE).send(await getDashboard(ctx, request.auth, request.query)),
  );
  r.get(
    '/api/dashboard/ticketsUsers',
    { config: route({ auth: 'admin' }), schema: { tags, querystring: ZDashboardChartQuery } },
    async (request, reply) => reply.type(JSON_TYPE).send(await getTicketsUsers(ctx, request.auth, request.query)),
  );
  r.get(
    '/api/dashboard/ticketsDay',
    { config: route({ auth: 'admin' }), schema: { tags, querystring: ZDashboardChartQuery } },
    async (request, reply) => reply.type(JSON_TYPE).send(await getTicketsDay(ctx, request.auth, request.query)),
  );
};
