import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from './harness';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The foundation's routes and who may call them; a change of power shows up here. */
const EXPECTED: Record<string, string> = {
  'GET /api/health': 'public',
  'GET /api/health/live': 'public',
  'GET /api/health/ready': 'public',
  // Prometheus, outside /api: the operator's METRICS_TOKEN (modules/ops)
  'GET /metrics': 'metrics',
  'POST /api/auth/login': 'public',
  'POST /api/auth/refresh_token': 'refresh',
  'DELETE /api/auth/logout': 'user',
  'GET /api/auth/me': 'user',
  'POST /api/forgetpassword/:email': 'public',
  'POST /api/resetpasswords': 'public',
  'POST /api/resetpasswords/:email/:token/:password': 'public',
  'POST /api/companies/cadastro': 'public',
  'GET /api/companies': 'super',
  'GET /api/companies/list': 'super',
  'GET /api/companies/listPlan/:companyId': 'user',
  'GET /api/companies/:id': 'admin',
  'POST /api/companies': 'super',
  'PUT /api/companies/:id': 'super',
  'PUT /api/companies/:id/schedules': 'admin',
  'DELETE /api/companies/:id': 'super',
  'GET /api/plans/list': 'public',
  'GET /api/plans/all': 'public',
  'GET /api/plans': 'super',
  'GET /api/plans/:id': 'user',
  'POST /api/plans': 'super',
  'PUT /api/plans/:id': 'super',
  'DELETE /api/plans/:id': 'super',
  'GET /api/helps': 'user',
  'GET /api/helps/list': 'user',
  'GET /api/helps/:id': 'user',
  'POST /api/helps': 'super',
  'PUT /api/helps/:id': 'super',
  'DELETE /api/helps/:id': 'super',
  'GET /api/users': 'user',
  'GET /api/users/list': 'user',
  'GET /api/users/:id': 'user',
  'POST /api/users': 'admin',
  'PUT /api/users/:id': 'user',
  'DELETE /api/users/:id': 'admin',
  'POST /api/users/set-language/:lang': 'user',
  // automatic assignment (issue 25): the signed-in user pauses itself; no plan flag (every plan assigns)
  'PUT /api/users/me/away': 'user',
  'GET /api/settings': 'user',
  'PUT /api/settings/:key': 'admin',
  'GET /api/queue': 'user',
  'GET /api/queue/:id': 'user',
  'POST /api/queue': 'admin',
  'PUT /api/queue/:id': 'admin',
  'DELETE /api/queue/:id': 'admin',
  'GET /api/queue-options': 'user',
  'GET /api/queue-options/:id': 'user',
  'POST /api/queue-options': 'admin',
  'PUT /api/queue-options/:id': 'admin',
  'DELETE /api/queue-options/:id': 'admin',
  // empty until the automation issue builds them (the connection dialog reads them)
  'GET /api/prompt': 'user',
  // AI prompts (plan flag useOpenAi on all but the list, which is empty without it)
  'GET /api/prompt/models': 'admin',
  'GET /api/prompt/:id': 'admin',
  'POST /api/prompt': 'admin',
  'PUT /api/prompt/:id': 'admin',
  'DELETE /api/prompt/:id': 'admin',
  // queue integrations: the list for every user (empty without useIntegrations); the rest admins + useIntegrations
  'GET /api/queueIntegration': 'user',
  'GET /api/queueIntegration/:id': 'admin',
  'GET /api/queueIntegration/:id/deliveries': 'admin',
  'POST /api/queueIntegration': 'admin',
  'POST /api/queueIntegration/testSession': 'admin',
  'PUT /api/queueIntegration/:id': 'admin',
  'DELETE /api/queueIntegration/:id': 'admin',
  // internal chat (plan flag useInternalChat; members only, owner-only edit and delete)
  'GET /api/chats': 'user',
  'GET /api/chats/unreads': 'user',
  'GET /api/chats/:id': 'user',
  'POST /api/chats': 'user',
  'PUT /api/chats/:id': 'user',
  'DELETE /api/chats/:id': 'user',
  'GET /api/chats/:id/messages': 'user',
  'POST /api/chats/:id/messages': 'user',
  'POST /api/chats/:id/read': 'user',
  // quick messages: any user; who may see or change one is decided per row (author, shared, admin)
  'GET /api/quick-messages': 'user',
  'GET /api/quick-messages/list': 'user',
  'GET /api/quick-messages/:id': 'user',
  'POST /api/quick-messages': 'user',
  'PUT /api/quick-messages/:id': 'user',
  'DELETE /api/quick-messages/:id': 'user',
  'POST /api/quick-messages/:id/media-upload': 'user',
  'DELETE /api/quick-messages/:id/media-upload': 'user',
  // announcements: everybody reads (company users the active ones), the super user writes
  'GET /api/announcements': 'user',
  'GET /api/announcements/for-company': 'user',
  'GET /api/announcements/:id': 'user',
  'POST /api/announcements': 'super',
  'PUT /api/announcements/:id': 'super',
  'DELETE /api/announcements/:id': 'super',
  'POST /api/announcements/:id/media-upload': 'super',
  'DELETE /api/announcements/:id/media-upload': 'super',
  // tags and the kanban board (its two reads need the plan flag useKanban)
  'GET /api/tags': 'user',
  'GET /api/tags/list': 'user',
  'GET /api/tags/kanban': 'user',
  'GET /api/tags/:id': 'user',
  'POST /api/tags': 'user',
  'PUT /api/tags/:id': 'user',
  'DELETE /api/tags/:id': 'admin',
  'POST /api/tags/sync': 'user',
  'PUT /api/ticket-tags/:ticketId/:tagId': 'user',
  'DELETE /api/ticket-tags/:ticketId': 'user',
  'GET /api/ticket/kanban': 'user',
  // scheduled messages (plan flag useSchedules on every one)
  'GET /api/schedules': 'user',
  'GET /api/schedules/:id': 'user',
  'POST /api/schedules': 'user',
  'PUT /api/schedules/:id': 'user',
  'DELETE /api/schedules/:id': 'user',
  'POST /api/schedules/:id/media-upload': 'user',
  'DELETE /api/schedules/:id/media-upload': 'user',
  'GET /api/failed-deliveries': 'admin',
  'GET /api/failed-deliveries/counts': 'super',
  'POST /api/failed-deliveries/:id/retry': 'admin',
  'DELETE /api/failed-deliveries/:id': 'admin',
  // the dashboard (spec 1 §7): admins, always the caller's company
  'GET /api/dashboard': 'admin',
  'GET /api/dashboard/ticketsUsers': 'admin',
  'GET /api/dashboard/ticketsDay': 'admin',
  // the reports (issue 25): admins, always the caller's company
  'GET /api/reports/summary': 'admin',
  'GET /api/reports/series': 'admin',
  'GET /api/reports/heatmap': 'admin',
  'GET /api/reports/agents': 'admin',
  'GET /api/reports/queues': 'admin',
  'GET /api/reports/csat': 'admin',
  'GET /api/reports/export': 'admin',
  // the weekly summary e-mail: the calling admin's own opt-in
  'GET /api/reports/weekly-mail': 'admin',
  'PUT /api/reports/weekly-mail': 'admin',
  'GET /api/contact-lists': 'admin',
  'GET /api/contact-lists/list': 'admin',
  'GET /api/contact-lists/:id': 'admin',
  'POST /api/contact-lists': 'admin',
  'PUT /api/contact-lists/:id': 'admin',
  'DELETE /api/contact-lists/:id': 'admin',
  'POST /api/contact-lists/:id/upload': 'admin',
  'POST /api/contact-lists/:id/check': 'admin',
  'GET /api/contact-list-items': 'admin',
  'GET /api/contact-list-items/:id': 'admin',
  'POST /api/contact-list-items': 'admin',
  'PUT /api/contact-list-items/:id': 'admin',
  'DELETE /api/contact-list-items/:id': 'admin',
  'POST /api/contact-list-items/:id/check': 'admin',
  'GET /api/campaign-settings': 'admin',
  'POST /api/campaign-settings': 'admin',
  'GET /api/campaigns': 'admin',
  'GET /api/campaigns/:id': 'admin',
  'POST /api/campaigns': 'admin',
  'PUT /api/campaigns/:id': 'admin',
  'DELETE /api/campaigns/:id': 'admin',
  'POST /api/campaigns/:id/cancel': 'admin',
  'POST /api/campaigns/:id/restart': 'admin',
  'GET /api/campaigns/:id/report': 'admin',
  'POST /api/campaigns/:id/media-upload': 'admin',
  'DELETE /api/campaigns/:id/media-upload': 'admin',
  // the flow builder and phrase campaigns (issue 14): admins, gated like campaigns
  'GET /api/flowbuilder': 'admin',
  'GET /api/flowbuilder/:id': 'admin',
  'POST /api/flowbuilder': 'admin',
  'PUT /api/flowbuilder': 'admin',
  'POST /api/flowbuilder/duplicate': 'admin',
  'DELETE /api/flowbuilder/:id': 'admin',
  'GET /api/flowbuilder/flow/:id': 'admin',
  'POST /api/flowbuilder/flow': 'admin',
  'POST /api/flowbuilder/:id/test-run': 'admin',
  'GET /api/flowbuilder/run/:id': 'admin',
  'DELETE /api/flowbuilder/run/:id': 'admin',
  'POST /api/flowbuilder/img': 'admin',
  'POST /api/flowbuilder/audio': 'admin',
  'POST /api/flowbuilder/video': 'admin',
  'POST /api/flowbuilder/content': 'admin',
  'GET /api/flowcampaign': 'admin',
  'GET /api/flowcampaign/:id': 'admin',
  'POST /api/flowcampaign': 'admin',
  'PUT /api/flowcampaign': 'admin',
  'DELETE /api/flowcampaign/:id': 'admin',
  // file lists (campaign attachments): an admin screen
  'GET /api/files': 'admin',
  'GET /api/files/list': 'admin',
  'GET /api/files/:id': 'admin',
  'POST /api/files': 'admin',
  'PUT /api/files/:id': 'admin',
  'DELETE /api/files/:id': 'admin',
  'POST /api/files/uploadList/:id': 'admin',
  // the external messages API: a connection's token, plan flag useExternalApi
  'POST /api/messages/send': 'token',
  // the subscription screen's plan, usage and standing (reachable by a pay-only session)
  'GET /api/subscription/usage': 'user',
  'GET /api/invoices': 'admin',
  'GET /api/invoices/all': 'admin',
  'GET /api/invoices/:id': 'admin',
  'PUT /api/invoices/:id': 'super',
  'POST /api/subscription': 'admin',
  'POST /api/subscription/webhook/asaas': 'public',
};

describe('route declarations', () => {
  it('every /api route declares its auth', () => {
    const undeclared = server.app.declaredRoutes.filter((r) => !r.decl);
    expect(undeclared).toEqual([]);
    expect(server.app.declaredRoutes.length).toBeGreaterThanOrEqual(Object.keys(EXPECTED).length);
  });

  it('each foundation route keeps its declared power', () => {
    const actual = Object.fromEntries(server.app.declaredRoutes.map((r) => [`${r.method} ${r.url}`, r.decl?.auth]));
    for (const [key, auth] of Object.entries(EXPECTED))
      expect({ route: key, auth: actual[key] }).toEqual({ route: key, auth });
  });

  it('the prompt routes but the list need the plan flag useOpenAi', () => {
    const prompts = server.app.declaredRoutes.filter(
      (r) => r.url.startsWith('/api/prompt/') || (r.url === '/api/prompt' && r.method !== 'GET'),
    );
    expect(prompts.length).toBe(5);
    for (const r of prompts)
      expect({ route: `${r.method} ${r.url}`, plan: r.decl?.plan }).toMatchObject({ plan: 'useOpenAi' });
  });

  it('the kanban routes need the plan flag useKanban', () => {
    const plans = Object.fromEntries(server.app.declaredRoutes.map((r) => [`${r.method} ${r.url}`, r.decl?.plan]));
    expect(plans['GET /api/ticket/kanban']).toBe('useKanban');
    expect(plans['GET /api/tags/kanban']).toBe('useKanban');
    // the tags screen and ticket tags are not a kanban feature
    expect(plans['GET /api/tags']).toBeUndefined();
    expect(plans['PUT /api/ticket-tags/:ticketId/:tagId']).toBeUndefined();
  });

  it('every schedules route needs the plan flag useSchedules', () => {
    const routes = server.app.declaredRoutes.filter((r) => r.url.startsWith('/api/schedules'));
    expect(routes).toHaveLength(7);
    for (const r of routes)
      expect({ route: `${r.method} ${r.url}`, plan: r.decl?.plan }).toMatchObject({ plan: 'useSchedules' });
  });

  it('the contact list routes need the plan flag useCampaigns (like the campaigns)', () => {
    const contactListRoutes = server.app.declaredRoutes.filter((r) => /^\/api\/contact-list/.test(r.url));
    expect(contactListRoutes).toHaveLength(14);
    for (const r of contactListRoutes)
      expect({ route: r.url, plan: r.decl?.plan }).toEqual({ route: r.url, plan: 'useCampaigns' });
  });

  it('the flow builder and phrase campaign routes need the plan flag useCampaigns (like the campaigns)', () => {
    const flows = server.app.declaredRoutes.filter((r) => /^\/api\/flow(builder|campaign)/.test(r.url));
    expect(flows.length).toBe(20);
    for (const r of flows) expect(r.decl?.plan, `${r.method} ${r.url}`).toBe('useCampaigns');
  });

  it('the campaign routes need the plan flag useCampaigns', () => {
    const plans = server.app.declaredRoutes.filter((r) => /^\/api\/campaign/.test(r.url));
    expect(plans.length).toBe(12);
    for (const r of plans)
      expect({ route: `${r.method} ${r.url}`, plan: r.decl?.plan }).toMatchObject({ plan: 'useCampaigns' });
  });

  it('the external messages API needs the plan flag useExternalApi and has its own rate limit', () => {
    const send = server.app.declaredRoutes.find((r) => r.method === 'POST' && r.url === '/api/messages/send');
    expect(send?.decl).toEqual({ auth: 'token', plan: 'useExternalApi', rateLimit: 'externalApi' });
  });

  it('every route that is not public refuses an anonymous call with 401', async () => {
    const guarded = server.app.declaredRoutes.filter((r) => r.decl && !['public', 'refresh'].includes(r.decl.auth));
    for (const r of guarded) {
      const url = r.url.replace(/:(\w+)/g, (_m, name: string) =>
        name === 'lang' ? 'pt' : name === 'key' ? 'userRating' : '1',
      );
      const res = await server.request(r.method, url, {
        body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      });
      expect({ route: `${r.method} ${r.url}`, status: res.status }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 401,
      });
    }
  });

  it('a route registered without a declaration stops the server from starting', async () => {
    const { default: Fastify } = await import('fastify');
    const { installRouteDeclarations } = await import('../src/http/authenticate');
    const app = Fastify();
    installRouteDeclarations(app, { db: server.ctx.db, tokens: server.ctx.tokens, sessions: server.ctx.sessions });
    expect(() => app.get('/api/forgotten', async () => 'x')).toThrow(/no auth declaration/);
    await app.close();
  });

  it('the OpenAPI document lists the routes', async () => {
    const res = await server.request('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/users/{id}', '/api/settings/{key}']),
    );
  });
});
