import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser, createPlan } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { pendingTicket, setupInbox } from '../../../test/inbox';
import { createSessionCache } from './session-cache';

const principal = (companyId: number, userId: number) => ({ companyId, userId, at: Math.random() });

describe('the session cache', () => {
  it('keeps a principal and a viewer for its time, then loads them again', async () => {
    const cache = createSessionCache({ ttlMs: 40 });
    let loads = 0;
    const load = async () => {
      loads++;
      return principal(1, 2);
    };
    const first = await cache.principal('s1', load);
    expect(await cache.principal('s1', load)).toBe(first);
    expect(await cache.viewer(1, 2, load)).toEqual(expect.objectContaining({ userId: 2 }));
    expect(loads).toBe(2);
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.principal('s1', load)).not.toBe(first);
    expect(loads).toBe(3);
  });

  it('keeps no missing principal', async () => {
    const cache = createSessionCache();
    let loads = 0;
    const missing = async () => {
      loads++;
      return null;
    };
    expect(await cache.principal('s1', missing)).toBeNull();
    expect(await cache.principal('s1', missing)).toBeNull();
    expect(loads).toBe(2);
  });

  it('forgets by user, by company or everything', async () => {
    const cache = createSessionCache();
    await cache.principal('a', async () => principal(1, 10));
    await cache.principal('b', async () => principal(1, 11));
    await cache.principal('c', async () => principal(2, 20));
    await cache.viewer(1, 10, async () => 'viewer 10');
    await cache.viewer(2, 20, async () => 'viewer 20');
    expect(cache.size()).toEqual({ principals: 3, viewers: 2 });
    await cache.forget({ userId: 10 });
    expect(cache.size()).toEqual({ principals: 2, viewers: 1 });
    await cache.forget({ companyId: 1 });
    expect(cache.size()).toEqual({ principals: 1, viewers: 1 });
    await cache.forget({ all: true });
    expect(cache.size()).toEqual({ principals: 0, viewers: 0 });
  });

  it('does not keep what was loaded while something was forgotten (it may predate the change)', async () => {
    const cache = createSessionCache();
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const loading = cache.principal('s1', async () => {
      await gate;
      return principal(1, 2);
    });
    await cache.forget({ userId: 99 });
    release();
    await loading;
    expect(cache.size().principals).toBe(0);
  });

  it('waits for the other nodes to forget, but not longer than its limit', async () => {
    const errors: unknown[] = [];
    const cache = createSessionCache({ peerTimeoutMs: 50, onPeerError: (err) => errors.push(err) });
    const heard: unknown[] = [];
    cache.setPeers({
      publish: async (scope) => {
        await new Promise((r) => setTimeout(r, 10));
        heard.push(scope);
      },
    });
    await cache.forget({ companyId: 3 });
    expect(heard).toEqual([{ companyId: 3 }]);
    cache.setPeers({ publish: () => new Promise(() => undefined) });
    const started = Date.now();
    await cache.forget({ userId: 4 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(errors).toHaveLength(1);
  });
});

describe('kept principals and viewers follow every change at once', () => {
  let server: TTestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const status = async (token: string, path: string) => (await server.request('GET', path, { token })).status;
  const kept = () => server.ctx.sessions.size();

  it('an admin made a plain user loses the admin routes on the next request', async () => {
    const tenant = await server.createTenant();
    const other = await createLoggedUser(server, tenant, { profile: 'admin' });
    expect(await status(other.token, '/api/failed-deliveries')).toBe(200);
    expect(kept().principals).toBeGreaterThan(0);
    const res = await server.request('PUT', `/api/users/${other.id}`, {
      token: tenant.token,
      body: { profile: 'user' },
    });
    expect(res.status).toBe(200);
    expect(await status(other.token, '/api/failed-deliveries')).toBe(403);
  });

  it('a deleted user, a logout and a new login end their sessions on the next request', async () => {
    const tenant = await server.createTenant();
    const gone = await createLoggedUser(server, tenant);
    expect(await status(gone.token, '/api/auth/me')).toBe(200);
    expect((await server.request('DELETE', `/api/users/${gone.id}`, { token: tenant.token })).status).toBe(204);
    expect(await status(gone.token, '/api/auth/me')).toBe(401);

    const leaving = await createLoggedUser(server, tenant);
    expect(await status(leaving.token, '/api/auth/me')).toBe(200);
    expect((await server.request('DELETE', '/api/auth/logout', { token: leaving.token })).status).toBe(204);
    expect(await status(leaving.token, '/api/auth/me')).toBe(401);

    const twice = await createLoggedUser(server, tenant);
    expect(await status(twice.token, '/api/auth/me')).toBe(200);
    await server.login(twice.email, twice.password);
    expect(await status(twice.token, '/api/auth/me')).toBe(401);
  });

  it('a company made inactive or past due is refused on the next request', async () => {
    const superUser = await server.superLogin();
    const off = await server.createTenant();
    expect(await status(off.token, '/api/settings')).toBe(200);
    await server.request('PUT', `/api/companies/${off.companyId}`, { token: superUser.token, body: { status: false } });
    expect(await status(off.token, '/api/settings')).toBe(403);

    const late = await server.createTenant();
    expect(await status(late.token, '/api/settings')).toBe(200);
    await server.request('PUT', `/api/companies/${late.companyId}`, {
      token: superUser.token,
      body: { dueDate: '2020-01-01' },
    });
    expect(await status(late.token, '/api/settings')).toBe(402);
  });

  it('a plan edited forgets every kept principal (its flags are in them)', async () => {
    const superUser = await server.superLogin();
    const tenant = await server.createTenant();
    expect(await status(tenant.token, '/api/settings')).toBe(200);
    const plan = await createPlan(server, superUser.token);
    expect(kept().principals).toBeGreaterThan(0);
    const res = await server.request('PUT', `/api/plans/${plan.id}`, {
      token: superUser.token,
      body: { name: plan.name, users: 10, connections: 10, queues: 10, value: 999, useKanban: false },
    });
    expect(res.status).toBe(200);
    expect(kept().principals).toBe(0);
  });

  it("the list follows a user's queues as soon as they change, and a deleted queue", async () => {
    const { tenant, connectionId, q1, q2, agent1 } = await setupInbox(server, 'Kept');
    const inQ2 = await pendingTicket(server, tenant, connectionId, { queueId: q2 });
    const ids = async () =>
      (await server.request('GET', '/api/tickets', { token: agent1.token })).body.tickets.map(
        (t: { id: number }) => t.id,
      );
    expect(await ids()).not.toContain(inQ2.ticketId);
    expect(kept().viewers).toBeGreaterThan(0);
    const moved = await server.request('PUT', `/api/users/${agent1.id}`, {
      token: tenant.token,
      body: { name: 'Agent One', queueIds: [q1, q2] },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await ids()).toContain(inQ2.ticketId);
    expect((await server.request('DELETE', `/api/queue/${q2}`, { token: tenant.token })).status).toBeLessThan(300);
    // the ticket lost its queue (set null): a user without "no queue" tickets no longer sees it
    expect(await ids()).not.toContain(inQ2.ticketId);
  });
});
