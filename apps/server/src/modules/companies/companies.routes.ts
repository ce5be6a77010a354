import {
  ZCompany,
  ZCompanyBody,
  ZCompanyUpdateBody,
  ZIdParams,
  ZListQuery,
  ZSignUpRequest,
  ZWorkingHours,
  zId,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import {
  createCompany,
  deleteCompany,
  getAllCompanies,
  getCompany,
  getCompanyPage,
  getCompanyPlan,
  signUp,
  updateCompany,
  updateCompanySchedules,
} from './companies.service';

export const companiesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['companies'];
  r.post(
    '/api/companies/cadastro',
    {
      config: route({ auth: 'public', rateLimit: 'signUp' }),
      schema: { tags, body: ZSignUpRequest, response: { 201: ZCompany } },
    },
    async (request, reply) => reply.status(201).send(await signUp(ctx, request.body)),
  );
  r.get('/api/companies', { config: route({ auth: 'super' }), schema: { tags, querystring: ZListQuery } }, (request) =>
    getCompanyPage(ctx, request.query),
  );
  r.get('/api/companies/list', { config: route({ auth: 'super' }), schema: { tags } }, () => getAllCompanies(ctx));
  r.get(
    '/api/companies/listPlan/:companyId',
    {
      config: route({ auth: 'user', allowExpired: true }),
      schema: { tags, params: z.object({ companyId: zId }) },
    },
    (request) => getCompanyPlan(ctx, request.auth, request.params.companyId),
  );
  r.get(
    '/api/companies/:id',
    { config: route({ auth: 'admin', allowExpired: true }), schema: { tags, params: ZIdParams } },
    (request) => getCompany(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/companies',
    { config: route({ auth: 'super' }), schema: { tags, body: ZCompanyBody } },
    async (request, reply) => reply.status(201).send(await createCompany(ctx, request.body)),
  );
  r.put(
    '/api/companies/:id',
    { config: route({ auth: 'super' }), schema: { tags, params: ZIdParams, body: ZCompanyUpdateBody } },
    (request) => updateCompany(ctx, request.params.id, request.body),
  );
  r.put(
    '/api/companies/:id/schedules',
    {
      config: route({ auth: 'admin' }),
      schema: { tags, params: ZIdParams, body: z.object({ schedules: ZWorkingHours }) },
    },
    (request) => updateCompanySchedules(ctx, request.auth, request.params.id, request.body.schedules),
  );
  r.delete(
    '/api/companies/:id',
    { config: route({ auth: 'super' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteCompany(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
};
