import { type TReportQuery, ZReportCsatQuery, ZReportExportQuery, ZReportQuery, ZWeeklyMailBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TAuth } from '../../http/authenticate';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { exportLanguage, exportReport } from './reports.export';
import { getWeeklyMail, setWeeklyMail } from './weekly-mail';
import {
  keptReport,
  reportAgents,
  reportCsat,
  reportFilters,
  reportHeatmap,
  reportQueues,
  reportSeries,
  reportSummary,
  type TReportScope,
} from './reports.service';

const JSON_TYPE = 'application/json; charset=utf-8';

export const scopeOf = (auth: TAuth): TReportScope => ({ companyId: auth.companyId, timeZone: auth.company.timezone });

/** the query with its window resolved (a window left out means "the last 30 days up to today") */
const keyOf = (scope: TReportScope, query: TReportQuery) => {
  const { window } = reportFilters(scope, query);

  return { ...query, from: window.from, to: window.to };
};

/**
 * The reports (ARCHITECTURE "Reports"): admins only, always the caller's company (a `companyId` in the query is
 * dropped by the schema, never read). Each JSON answer is kept until the company's next announced change; the
 * exports (reports.export.ts) are read each time and streamed; the weekly e-mail's opt-in (weekly-mail.ts) is the
 * calling admin's own.
 */
export const reportsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['reports'];
  const reports = {
    summary: reportSummary,
    series: reportSeries,
    heatmap: reportHeatmap,
    agents: reportAgents,
    queues: reportQueues,
  } as const;
  for (const [name, read] of Object.entries(reports)) {
    r.get(
      `/api/reports/${name}`,
      { config: route({ auth: 'admin' }), schema: { tags, querystring: ZReportQuery } },
      async (request, reply) => {
        const scope = scopeOf(request.auth);
        const answer = await keptReport(ctx, scope, name, keyOf(scope, request.query), () =>
          read(ctx.db, scope, request.query),
        );

        return reply.type(JSON_TYPE).send(answer);
      },
    );
  }
  r.get(
    '/api/reports/csat',
    { config: route({ auth: 'admin' }), schema: { tags, querystring: ZReportCsatQuery } },
    async (request, reply) => {
      const scope = scopeOf(request.auth);
      const answer = await keptReport(ctx, scope, 'csat', keyOf(scope, request.query), () =>
        reportCsat(ctx.db, scope, request.query),
      );

      return reply.type(JSON_TYPE).send(answer);
    },
  );
  r.get(
    '/api/reports/export',
    {
      config: route({ auth: 'admin' }),
      schema: {
        tags,
        querystring: ZReportExportQuery,
        description:
          'A report as a file to download (CSV with a BOM, or XLSX): `report` names the table or chart, or `tickets` ' +
          "for one row per conversation of the window (streamed). Column names in `lang`, else the caller's language.",
      },
    },
    async (request, reply) => {
      const { auth } = request;
      const lang = await exportLanguage(ctx.db, auth.companyId, auth.userId, request.query.lang);
      const file = await exportReport(ctx.db, scopeOf(auth), request.query, lang);

      return reply
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .type(file.contentType)
        .send(file.stream);
    },
  );
  // the caller's own weekly summary by e-mail (weekly-mail.ts): `{enabled, email}`
  r.get('/api/reports/weekly-mail', { config: route({ auth: 'admin' }), schema: { tags } }, (request) =>
    getWeeklyMail(ctx, request.auth),
  );
  r.put(
    '/api/reports/weekly-mail',
    { config: route({ auth: 'admin' }), schema: { tags, body: ZWeeklyMailBody } },
    (request) => setWeeklyMail(ctx, request.auth, request.body.enabled),
  );
};
