import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser, createPlan, openSocket, recordEvents, type TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { insertContact, insertDefaultConnection } from '../../../test/inbox';
import { momentToDate } from '../../lib/dates';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let server: TTestServer;
let tenant: TTenant;
let ana: { id: number; token: string };
let bob: { id: number; token: string };
let contact: { id: number; name: string };
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  ana = await createLoggedUser(server, tenant, { name: 'Ana' });
  bob = await createLoggedUser(server, tenant, { name: 'Bob' });
  contact = await insertContact(server, tenant.companyId, { name: 'Carla Customer' });
});
afterAll(() => server.close());

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

const add = async (token: string, fields: Record<string, unknown> = {}) => {
  const res = await server.request('POST', '/api/schedules', {
    token,
    body: { body: 'Remember your appointment', contactId: contact.id, sendAt: inAnHour(), ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body;
};

const upload = async (id: number, data: Buffer, name: string, token = ana.token) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), name);
  const res = await fetch(`${server.url}/api/schedules/${id}/media-upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();

  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

describe('schedules', () => {
  it('creates one PENDENTE with the caller as author and the contact, whatever userId/sentAt say', async () => {
    const sendAt = inAnHour();
    const created = await add(ana.token, { sendAt, userId: bob.id, sentAt: '' });
    expect(created).toMatchObject({
      body: 'Remember your appointment',
      status: 'PENDENTE',
      sentAt: null,
      sendAt,
      userId: ana.id,
      user: { id: ana.id, name: 'Ana' },
      contact: { id: contact.id, name: 'Carla Customer' },
      whatsappId: null,
      errorMessage: null,
    });
    const read = await server.request('GET', `/api/schedules/${created.id}`, { token: bob.token });
    expect(read).toMatchObject({ status: 200, body: { id: created.id, status: 'PENDENTE' } });
  });

  it('validates: body of at least 5 characters, contact and sendAt required, contact and connection of the company', async () => {
    const short = await server.request('POST', '/api/schedules', {
      token: ana.token,
      body: { body: 'Hey', contactId: contact.id, sendAt: inAnHour() },
    });
    expect(short).toMatchObject({ status: 400, body: { details: [{ path: 'body', message: 'messageTooShort' }] } });
    const none = await server.request('POST', '/api/schedules', {
      token: ana.token,
      body: { body: 'Long enough', contactId: '', sendAt: '' },
    });
    expect(none.status).toBe(400);
    expect(none.body.details).toEqual(
      expect.arrayContaining([
        { path: 'contactId', message: 'required' },
        { path: 'sendAt', message: 'required' },
      ]),
    );
    const badDate = await server.request('POST', '/api/schedules', {
      token: ana.token,
      body: { body: 'Long enough', contactId: contact.id, sendAt: 'tomorrow' },
    });
    expect(badDate).toMatchObject({ status: 400, body: { details: [{ path: 'sendAt', message: 'invalid' }] } });
    const other = await server.createTenant();
    const foreign = await insertContact(server, other.companyId);
    const foreignConn = await insertDefaultConnection(server, other.companyId);
    expect(
      await server.request('POST', '/api/schedules', {
        token: ana.token,
        body: { body: 'Long enough', contactId: foreign.id, sendAt: inAnHour() },
      }),
    ).toMatchObject({ status: 404, body: { error: 'ERR_NO_CONTACT_FOUND' } });
    expect(
      await server.request('POST', '/api/schedules', {
        token: ana.token,
        body: { body: 'Long enough', contactId: contact.id, sendAt: inAnHour(), whatsappId: foreignConn },
      }),
    ).toMatchObject({ status: 404, body: { error: 'ERR_NO_WAPP_FOUND' } });
    const count = await server.request('GET', '/api/schedules', {
      token: ana.token,
      query: { searchParam: 'Long enough' },
    });
    expect(count.body.count).toBe(0);
  });

  it("reads the ancestor's local YYYY-MM-DDTHH:mm in the company's zone", async () => {
    expect(momentToDate('2026-03-10T09:30', 'America/Sao_Paulo').toISOString()).toBe('2026-03-10T12:30:00.000Z');
    expect(momentToDate('2026-07-01T09:30', 'Europe/Lisbon').toISOString()).toBe('2026-07-01T08:30:00.000Z');
    expect(momentToDate('2026-03-10T09:30:00-05:00', 'America/Sao_Paulo').toISOString()).toBe(
      '2026-03-10T14:30:00.000Z',
    );
    const created = await add(ana.token, { sendAt: '2030-03-10T09:30' });
    expect(created.sendAt).toBe('2030-03-10T12:30:00.000Z');
  });

  it('lists with search, contact, user and a date range; answers {schedules, count, hasMore}', async () => {
    const other = await insertContact(server, tenant.companyId, { name: 'Zeca Range' });
    const base = Date.UTC(2031, 0, 15, 12);
    const inside = await add(bob.token, {
      contactId: other.id,
      sendAt: new Date(base).toISOString(),
      body: 'Range one',
    });
    await add(bob.token, { contactId: other.id, sendAt: new Date(base + 40 * 86_400_000).toISOString() });
    const range = await server.request('GET', '/api/schedules', {
      token: ana.token,
      query: { startDate: '2031-01-01T00:00:00.000Z', endDate: '2031-02-01T00:00:00.000Z' },
    });
    expect(range.status).toBe(200);
    expect(range.body).toMatchObject({ count: 1, hasMore: false });
    expect(range.body.schedules.map((s: { id: number }) => s.id)).toEqual([inside.id]);
    const byContact = await server.request('GET', '/api/schedules', {
      token: ana.token,
      query: { contactId: other.id },
    });
    expect(byContact.body.count).toBe(2);
    const byName = await server.request('GET', '/api/schedules', { token: ana.token, query: { searchParam: 'zeca' } });
    expect(byName.body.count).toBe(2);
    const byUser = await server.request('GET', '/api/schedules', {
      token: ana.token,
      query: { userId: bob.id, contactId: '' },
    });
    expect(byUser.body.schedules.every((s: { userId: number }) => s.userId === bob.id)).toBe(true);
    const pageSize = await server.request('GET', '/api/schedules', { token: ana.token });
    expect(pageSize.body).toHaveProperty('hasMore');
  });

  it('only its author or an admin edits or deletes it; an ERRO one edited goes back to PENDENTE; a sent one is not edited', async () => {
    const s = await add(ana.token);
    expect(
      await server.request('PUT', `/api/schedules/${s.id}`, { token: bob.token, body: { body: 'Changed text' } }),
    ).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await server.request('DELETE', `/api/schedules/${s.id}`, { token: bob.token })).status).toBe(403);
    // the ancestor's dialog sends the whole record back
    const edited = await server.request('PUT', `/api/schedules/${s.id}`, {
      token: tenant.token,
      body: { ...s, body: 'Changed text', status: 'ENVIADA', sentAt: '2020-01-01T00:00:00Z' },
    });
    expect(edited).toMatchObject({ status: 200, body: { body: 'Changed text', status: 'PENDENTE', sentAt: null } });
    await server.database.executeSql("update schedules set status = 'ERRO', error_message = 'late' where id = $1", [
      s.id,
    ]);
    const retried = await server.request('PUT', `/api/schedules/${s.id}`, {
      token: ana.token,
      body: { sendAt: inAnHour() },
    });
    expect(retried).toMatchObject({ status: 200, body: { status: 'PENDENTE', errorMessage: null } });
    await server.database.executeSql("update schedules set status = 'ENVIADA', sent_at = now() where id = $1", [s.id]);
    expect(
      await server.request('PUT', `/api/schedules/${s.id}`, { token: ana.token, body: { body: 'Too late now' } }),
    ).toMatchObject({ status: 409, body: { error: 'ERR_CONFLICT' } });
    expect(await server.request('DELETE', `/api/schedules/${s.id}`, { token: ana.token })).toMatchObject({
      status: 200,
    });
    expect(await server.request('GET', `/api/schedules/${s.id}`, { token: ana.token })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_SCHEDULE_FOUND' },
    });
  });

  it('attaches a png or jpeg by content, refuses others, removes it', async () => {
    const s = await add(ana.token);
    const pdf = await upload(s.id, Buffer.from('%PDF-1.4\n%%EOF\n'), 'fake.png');
    expect(pdf).toMatchObject({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });
    expect((await upload(s.id, PNG, 'a.png', bob.token)).status).toBe(403);
    const ok = await upload(s.id, PNG, 'my photo.png');
    expect(ok).toMatchObject({ status: 200, body: { id: s.id, mediaName: 'my_photo.png' } });
    expect(ok.body.mediaPath).toMatch(/\/public\/[0-9a-f]{32}\.png$/);
    const served = await fetch(`${server.url}/public/${ok.body.mediaPath.split('/public/')[1]}`);
    expect(served.status).toBe(200);
    const removed = await server.request('DELETE', `/api/schedules/${s.id}/media-upload`, { token: ana.token });
    expect(removed).toMatchObject({ status: 200, body: { mediaPath: null, mediaName: null } });
  });

  it('announces create, update and delete on company-{id}-schedule, to that company only', async () => {
    const socket = await openSocket(server, bob.token);
    const heard = recordEvents(socket);
    const stranger = await server.createTenant('Stranger');
    const strangerSocket = await openSocket(server, stranger.token);
    const strangerHeard = recordEvents(strangerSocket);
    const event = `company-${tenant.companyId}-schedule`;
    try {
      const s = await add(ana.token);
      await heard.waitFor(event, (p) => p.action === 'create' && p.schedule.id === s.id);
      await server.request('PUT', `/api/schedules/${s.id}`, { token: ana.token, body: { body: 'Updated body' } });
      await heard.waitFor(event, (p) => p.action === 'update' && p.schedule.body === 'Updated body');
      await server.request('DELETE', `/api/schedules/${s.id}`, { token: ana.token });
      await heard.waitFor(event, (p) => p.action === 'delete' && p.scheduleId === s.id);
      expect(strangerHeard.heard.filter((h) => /schedule/.test(h.event))).toEqual([]);
    } finally {
      strangerSocket.close();
      socket.close();
    }
  });

  it('a plan without useSchedules answers 403 ERR_PLAN_FEATURE_DISABLED on every route', async () => {
    const other = await server.createTenant();
    const c = await insertContact(server, other.companyId);
    const created = await server.request('POST', '/api/schedules', {
      token: other.token,
      body: { body: 'Before the plan change', contactId: c.id, sendAt: inAnHour() },
    });
    expect(created.status).toBe(200);
    const superToken = (await server.superLogin()).token;
    const plan = await createPlan(server, superToken, { useSchedules: false });
    expect(
      (
        await server.request('PUT', `/api/companies/${other.companyId}`, {
          token: superToken,
          body: { planId: plan.id },
        })
      ).status,
    ).toBe(200);
    const session = await server.login(other.email, other.password);
    const id = created.body.id;
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/schedules'],
      ['GET', `/api/schedules/${id}`],
      ['POST', '/api/schedules', { body: 'Long enough', contactId: c.id, sendAt: inAnHour() }],
      ['PUT', `/api/schedules/${id}`, { body: 'Long enough' }],
      ['DELETE', `/api/schedules/${id}/media-upload`],
      ['DELETE', `/api/schedules/${id}`],
    ];
    for (const [method, path, body] of calls) {
      expect(await server.request(method, path, { token: session.token, body }), `${method} ${path}`).toMatchObject({
        status: 403,
        body: { error: 'ERR_PLAN_FEATURE_DISABLED' },
      });
    }
    expect((await upload(id, PNG, 'a.png', session.token)).status).toBe(403);
  });
});
