/**
 * The ancestor's web client, round 2 (issue 22 A): the places where its screens tripped on Zelo's answers when it
 * was driven page by page. Each case names the ancestor file (under frontend/src) whose request or whose reading
 * of the answer it replays; the shapes are those the first contract suite (ancestor-contract.test.ts) uses.
 * Cases that live with their module: the password reset in the path (password-reset.test.ts), campaign settings
 * as rows (campaigns.test.ts), list-item reloads with records (contact-lists.test.ts), file-list events with
 * `files` (files.test.ts), the one greeting per accept (tickets.test.ts), the flowbuilder integration without a
 * flow (flows.test.ts, queue-integrations.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignHelpers } from '../src/modules/campaigns/campaigns.fixtures';
import { createLoggedUser, createUser, insertQueue, unique } from './fixtures';
import { startTestServer, type TTestServer } from './harness';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
const { connectedSandbox, insertList, create, sql } = campaignHelpers(() => server);

describe('the super user’s company screens', () => {
  it('GET /companies/list carries each company’s settings rows (pages/Companies, CompaniesManager)', async () => {
    const t = await server.createTenant('Settings');
    await server.request('PUT', '/api/settings/campaignsEnabled', { token: t.token, body: { value: 'false' } });
    const superUser = await server.superLogin();
    const res = await server.request('GET', '/api/companies/list', { token: superUser.token });
    expect(res.status).toBe(200);
    const mine = res.body.find((c: { id: number }) => c.id === t.companyId);
    // its editor does `data.settings.find(s => s.key === "campaignsEnabled")` and its column reads the value
    expect(mine.settings).toContainEqual(
      expect.objectContaining({ key: 'campaignsEnabled', value: 'false', companyId: t.companyId }),
    );
    for (const c of res.body) expect(Array.isArray(c.settings)).toBe(true);
  });

  it('GET /users/list?companyId=N lists that company’s users for the super user only (CompaniesManager "User")', async () => {
    const a = await server.createTenant('UsersA');
    const b = await server.createTenant('UsersB');
    const queueId = await insertQueue(server, a.companyId);
    const agent = await createLoggedUser(server, a, { name: 'Agente A', queueIds: [queueId] });
    const superUser = await server.superLogin();
    const listed = await server.request('GET', '/api/users/list', {
      token: superUser.token,
      query: { companyId: a.companyId },
    });
    expect(listed.status).toBe(200);
    expect(listed.body.map((u: { id: number }) => u.id)).toEqual([a.user.id, agent.id]);
    expect(listed.body[1]).toMatchObject({
      name: 'Agente A',
      email: agent.email,
      queues: [{ id: queueId, UserQueue: { userId: agent.id, queueId } }],
    });
    // anyone else reads their own company whatever the query says
    const own = await server.request('GET', '/api/users/list', { token: b.token, query: { companyId: a.companyId } });
    expect(own.status).toBe(200);
    expect(own.body.map((u: { id: number }) => u.id)).toEqual([b.user.id]);
  });

  it('POST /companies takes a 13-digit phone with the country code, kept as digits (CompaniesManager)', async () => {
    const superUser = await server.superLogin();
    const plans = await server.request('GET', '/api/plans/list');
    const res = await server.request('POST', '/api/companies', {
      token: superUser.token,
      body: {
        name: unique('Fone'),
        email: `${unique('fone')}@example.com`,
        phone: '+55 (11) 92222-1111',
        planId: plans.body[0].id,
        password: 'Admin-Pass-1',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.phone).toBe('5511922221111');
    const tooLong = await server.request('POST', '/api/companies', {
      token: superUser.token,
      body: { name: unique('Fone'), email: `${unique('f')}@example.com`, phone: '55119222211112', planId: 1 },
    });
    expect(tooLong).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });
});

describe('an agent’s and an admin’s session', () => {
  it('every queue of the login, refresh and /auth/me answers carries UserQueue (pages/Kanban)', async () => {
    const t = await server.createTenant('Kanban');
    const queueId = await insertQueue(server, t.companyId);
    const created = await createUser(server, t, { queueIds: [queueId] });
    const agent = await server.login(created.email, created.password);
    const expected = [expect.objectContaining({ id: queueId, UserQueue: { userId: created.id, queueId } })];
    expect(agent.user.queues).toEqual(expected);
    const me = await server.request('GET', '/api/auth/me', { token: agent.token });
    expect(me.body.queues).toEqual(expected);
    const refreshed = await server.request('POST', '/api/auth/refresh_token', { cookies: { jrt: agent.refresh } });
    expect(refreshed.body.user.queues).toEqual(expected);
    const shown = await server.request('GET', `/api/users/${created.id}`, { token: t.token });
    expect(shown.body.queues).toEqual(expected);
  });

  it('GET /plans/:id answers any signed-in user, so the Pay wizard keeps the session (Financeiro → pagar)', async () => {
    const t = await server.createTenant('Pay');
    const agent = await createLoggedUser(server, t);
    for (const token of [t.token, agent.token]) {
      const res = await server.request('GET', `/api/plans/${t.company.planId}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: t.company.planId, name: expect.any(String) });
    }
    expect((await server.request('GET', `/api/plans/${t.company.planId}`)).status).toBe(401);
  });
});

describe('campaigns', () => {
  it('reads a zone-less scheduledAt in the company’s time zone (components/CampaignModal)', async () => {
    const t = await server.createTenant('Zone');
    await sql("update companies set timezone = 'America/Sao_Paulo' where id = $1", [t.companyId]);
    const audience = {
      message1: 'Oi',
      whatsappId: await connectedSandbox(t),
      contactListId: (await insertList(t.companyId, 1)).id,
    };
    const res = await create(t, { scheduledAt: '2030-11-28 02:18:00', ...audience });
    expect(res.status).toBe(201);
    // 02:18 in São Paulo (UTC-3) is 05:18 UTC — not 02:18 UTC, the server process's zone here
    expect(res.body.scheduledAt).toBe('2030-11-28T05:18:00.000Z');
    const moved = await server.request('PUT', `/api/campaigns/${res.body.id}`, {
      token: t.token,
      body: { scheduledAt: '2030-12-01T09:00' },
    });
    expect(moved.body.scheduledAt).toBe('2030-12-01T12:00:00.000Z');
    // an instant with its zone is kept as written
    const utc = await create(t, { scheduledAt: '2030-11-28T02:18:00Z', ...audience });
    expect(utc.body.scheduledAt).toBe('2030-11-28T02:18:00.000Z');
  });

  it('takes the file right after creating a campaign that starts within the hour (CampaignModal save, then upload)', async () => {
    const t = await server.createTenant('Media');
    const connectionId = await connectedSandbox(t);
    const list = await insertList(t.companyId, 2);
    const soon = new Date(Date.now() + 20 * 60_000).toISOString();
    const campaign = await create(t, {
      scheduledAt: soon,
      message1: 'Oferta',
      whatsappId: connectionId,
      contactListId: list.id,
    });
    expect(campaign.body).toMatchObject({ status: 'PROGRAMADA', editable: false });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'oferta.pdf');
    const res = await fetch(`${server.url}/api/campaigns/${campaign.body.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { mediaName: string; mediaPath: string };
    expect(body.mediaName).toBe('oferta.pdf');
    // a relative link: it works from any address the app is reached at
    expect(body.mediaPath).toMatch(/^\/public\/[0-9a-f]{32}\.pdf$/);
    // once it is sending, the file can no longer change
    await sql("update campaigns set status = 'EM_ANDAMENTO' where id = $1", [campaign.body.id]);
    const late = await fetch(`${server.url}/api/campaigns/${campaign.body.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: form,
    });
    expect(late.status).toBe(409);
  });

  it('GET /campaigns/:id carries shipping[] and contactList.contacts[] for the report’s counts (pages/CampaignReport)', async () => {
    const t = await server.createTenant('Report');
    const list = await insertList(t.companyId, 3, 1);
    const campaign = await create(t, { message1: 'Oi', contactListId: list.id });
    const [first, second] = await sql(
      `insert into campaign_shippings (company_id, campaign_id, number, message, state, delivered_at)
       values ($1, $2, '5511900000001', 'Oi', 'sent', now()), ($1, $2, '5511900000002', 'Oi', 'queued', null)
       returning id`,
      [t.companyId, campaign.body.id],
    );
    const res = await server.request('GET', `/api/campaigns/${campaign.body.id}`, { token: t.token });
    expect(res.status).toBe(200);
    // its page: valid = contactList.contacts.filter(c => c.isWhatsappValid); delivered = shipping.filter(deliveredAt)
    expect(res.body.contactList.contacts).toHaveLength(4);
    expect(res.body.contactList.contacts.filter((c: { isWhatsappValid: boolean }) => c.isWhatsappValid)).toHaveLength(
      3,
    );
    expect(res.body.shipping.map((s: { id: number }) => s.id)).toEqual([first.id, second.id]);
    expect(res.body.shipping.filter((s: { deliveredAt: string | null }) => s.deliveredAt !== null)).toHaveLength(1);
    // only what the page counts: no message texts, numbers or names in these lists
    expect(Object.keys(res.body.shipping[0]).sort()).toEqual(['deliveredAt', 'id']);
    expect(Object.keys(res.body.contactList.contacts[0]).sort()).toEqual(['id', 'isWhatsappValid']);
  });
});
