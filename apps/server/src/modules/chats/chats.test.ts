import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLoggedUser,
  createPlan,
  createUser,
  openSocket,
  recordEvents,
  type TTenant,
  unique,
} from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let tenant: TTenant;
/** b and c are users of the tenant's company; only the admin (owner) and b are in `chat` */
let b: Awaited<ReturnType<typeof createLoggedUser>>;
let c: Awaited<ReturnType<typeof createLoggedUser>>;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  b = await createLoggedUser(server, tenant, { name: 'Bruna' });
  c = await createLoggedUser(server, tenant, { name: 'Caio' });
});
afterAll(() => server.close());

const newChat = async (token: string, users: { id: number }[], title = unique('Chat')) =>
  server.request('POST', '/api/chats', { token, body: { title, users } });

const unreadsOf = (chat: { users: { userId: number; unreads: number }[] }) =>
  Object.fromEntries(chat.users.map((u) => [u.userId, u.unreads]));

describe('internal chat', () => {
  it('creates a chat with the owner always a member; title and another member are required', async () => {
    const adminId = tenant.user.id as number;
    const res = await newChat(tenant.token, [{ id: b.id }], 'Team');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Team', ownerId: adminId, lastMessage: '', owner: { id: adminId } });
    expect(res.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.users.map((u: { userId: number }) => u.userId).sort()).toEqual([adminId, b.id].sort());
    expect(res.body.users.find((u: { userId: number }) => u.userId === b.id)).toMatchObject({
      unreads: 0,
      user: { id: b.id, name: 'Bruna' },
    });
    // the owner listed too (as the ancestor's edit dialog sends it) is one member, not two
    const twice = await newChat(tenant.token, [{ id: adminId }, { id: b.id }, { id: b.id }]);
    expect(twice.body.users).toHaveLength(2);

    const noTitle = await newChat(tenant.token, [{ id: b.id }], '  ');
    expect(noTitle).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', details: [{ path: 'title' }] } });
    const noUsers = await newChat(tenant.token, []);
    expect(noUsers).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', details: [{ path: 'users' }] } });
    const onlyMe = await newChat(tenant.token, [{ id: adminId }]);
    expect(onlyMe).toMatchObject({ status: 400, body: { error: 'ERR_CHAT_NO_MEMBERS' } });
    // a user of another company is a missing user, and nothing is written
    const other = await server.createTenant();
    const before = await server.database.executeSql('select count(*)::int as n from chats');
    const foreign = await newChat(tenant.token, [{ id: b.id }, { id: other.user.id }]);
    expect(foreign).toMatchObject({ status: 404, body: { error: 'ERR_NO_USER_FOUND' } });
    expect((await server.database.executeSql('select count(*)::int as n from chats')).rows).toEqual(before.rows);
  });

  it('lists only the chats the caller is a member of, paged, with search; reads one by id or uuid', async () => {
    const t = await server.createTenant();
    const x = await createLoggedUser(server, t, { name: 'Xavier' });
    const y = await createLoggedUser(server, t, { name: 'Yara' });
    const prefix = unique('room');
    const made: { id: number; uuid: string }[] = [];
    for (let i = 0; i < 22; i += 1) {
      made.push((await newChat(t.token, [{ id: x.id }], `${prefix} ${String(i).padStart(2, '0')}`)).body);
    }
    const page1 = await server.request('GET', '/api/chats', { token: x.token });
    expect(page1.body).toMatchObject({ count: 22, hasMore: true });
    expect(page1.body.records).toHaveLength(20);
    // the latest activity first
    expect(page1.body.records[0].id).toBe(made[21].id);
    const page2 = await server.request('GET', '/api/chats', { token: x.token, query: { pageNumber: '2' } });
    expect(page2.body).toMatchObject({ count: 22, hasMore: false });
    expect(page2.body.records.map((r: { id: number }) => r.id)).toEqual([made[1].id, made[0].id]);
    // a message moves its chat to the top
    await server.request('POST', `/api/chats/${made[0].id}/messages`, { token: x.token, body: { message: 'up' } });
    const again = await server.request('GET', '/api/chats', { token: t.token });
    expect(again.body.records[0]).toMatchObject({ id: made[0].id, lastMessage: 'Xavier: up' });
    const found = await server.request('GET', '/api/chats', {
      token: x.token,
      query: { searchParam: `${prefix} 07` },
    });
    expect(found.body.records.map((r: { id: number }) => r.id)).toEqual([made[7].id]);
    // Yara is in none of them
    expect((await server.request('GET', '/api/chats', { token: y.token })).body).toEqual({
      records: [],
      count: 0,
      hasMore: false,
    });
    const byUuid = await server.request('GET', `/api/chats/${made[3].uuid}`, { token: x.token });
    expect(byUuid).toMatchObject({ status: 200, body: { id: made[3].id } });
    const byId = await server.request('GET', `/api/chats/${made[3].id}`, { token: x.token });
    expect(byId.body).toEqual(byUuid.body);
    expect(await server.request('GET', `/api/chats/${made[3].uuid}`, { token: y.token })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_CHAT_FOUND' },
    });
    expect((await server.request('GET', '/api/chats/not-a-chat', { token: x.token })).status).toBe(400);
  });

  it('a non-member can neither read, write, mark read, edit nor delete a chat (404, as a missing one)', async () => {
    const { body: chat } = await newChat(tenant.token, [{ id: b.id }]);
    await server.request('POST', `/api/chats/${chat.id}/messages`, { token: b.token, body: { message: 'secret' } });
    const missing = 2_000_000_000;
    const attempts: [string, (id: number | string) => string, unknown?][] = [
      ['GET', (id) => `/api/chats/${id}`],
      ['GET', (id) => `/api/chats/${id}/messages`],
      ['POST', (id) => `/api/chats/${id}/messages`, { message: 'intruder' }],
      ['POST', (id) => `/api/chats/${id}/read`, { userId: c.id }],
      ['PUT', (id) => `/api/chats/${id}`, { title: 'Taken', users: [{ id: c.id }] }],
      ['DELETE', (id) => `/api/chats/${id}`],
    ];
    for (const [method, path, body] of attempts) {
      const m = await server.request(method, path(missing), { token: c.token, body });
      for (const ref of [chat.id, chat.uuid]) {
        const res = await server.request(method, path(ref), { token: c.token, body });
        expect(res, `${method} ${path(ref)}`).toMatchObject({ status: 404, body: m.body });
      }
    }
    const after = await server.request('GET', `/api/chats/${chat.id}/messages`, { token: b.token });
    expect(after.body.records.map((r: { message: string }) => r.message)).toEqual(['secret']);
    expect((await server.request('GET', `/api/chats/${chat.id}`, { token: b.token })).body.title).toBe(chat.title);
  });

  it('only the owner edits or deletes (403 for another member); an edit keeps the owner and the unreads', async () => {
    const { body: chat } = await newChat(tenant.token, [{ id: b.id }], 'Before');
    const asMember = await server.request('PUT', `/api/chats/${chat.id}`, { token: b.token, body: { title: 'Mine' } });
    expect(asMember).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    expect(await server.request('DELETE', `/api/chats/${chat.id}`, { token: b.token })).toMatchObject({
      status: 403,
      body: { error: 'ERR_NO_PERMISSION' },
    });

    await server.request('POST', `/api/chats/${chat.id}/messages`, { token: tenant.token, body: { message: 'hi' } });
    // the owner renames it and swaps nobody out: Bruna keeps her unread message; Caio joins
    const edited = await server.request('PUT', `/api/chats/${chat.id}`, {
      token: tenant.token,
      body: { title: 'After', users: [{ id: b.id }, { id: c.id }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.title).toBe('After');
    expect(unreadsOf(edited.body)).toEqual({ [tenant.user.id]: 0, [b.id]: 1, [c.id]: 0 });
    expect((await server.request('GET', `/api/chats/${chat.id}`, { token: c.token })).status).toBe(200);
    // Bruna removed: she no longer sees it; the owner stays though not listed
    const removed = await server.request('PUT', `/api/chats/${chat.id}`, {
      token: tenant.token,
      body: { users: [{ id: c.id }] },
    });
    expect(unreadsOf(removed.body)).toEqual({ [tenant.user.id]: 0, [c.id]: 0 });
    expect((await server.request('GET', `/api/chats/${chat.id}`, { token: b.token })).status).toBe(404);
    const empty = await server.request('PUT', `/api/chats/${chat.id}`, {
      token: tenant.token,
      body: { users: [{ id: tenant.user.id }] },
    });
    expect(empty).toMatchObject({ status: 400, body: { error: 'ERR_CHAT_NO_MEMBERS' } });

    const gone = await server.request('DELETE', `/api/chats/${chat.id}`, { token: tenant.token });
    expect(gone.status).toBe(200);
    expect((await server.request('GET', `/api/chats/${chat.id}`, { token: tenant.token })).status).toBe(404);
    expect(
      (await server.database.executeSql('select count(*)::int as n from chat_messages where chat_id = $1', [chat.id]))
        .rows,
    ).toEqual([{ n: 0 }]);
  });

  it("a message counts unread for every other member; a read clears only the reader's", async () => {
    const { body: chat } = await newChat(tenant.token, [{ id: b.id }, { id: c.id }]);
    const adminId = tenant.user.id as number;
    const sent = await server.request('POST', `/api/chats/${chat.id}/messages`, {
      token: tenant.token,
      body: { message: 'one' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ chatId: chat.id, senderId: adminId, message: 'one', sender: { id: adminId } });
    expect(unreadsOf(sent.body.chat)).toEqual({ [adminId]: 0, [b.id]: 1, [c.id]: 1 });
    await server.request('POST', `/api/chats/${chat.id}/messages`, { token: tenant.token, body: { message: 'two' } });
    const fromB = await server.request('POST', `/api/chats/${chat.id}/messages`, {
      token: b.token,
      body: { message: 'three' },
    });
    // Bruna wrote, so she has read it all
    expect(unreadsOf(fromB.body.chat)).toEqual({ [adminId]: 1, [b.id]: 0, [c.id]: 3 });
    expect(fromB.body.chat.lastMessage).toBe('Bruna: three');

    // Caio marks it read: only his count clears
    const read = await server.request('POST', `/api/chats/${chat.id}/read`, { token: c.token, body: { userId: c.id } });
    expect(read.status).toBe(200);
    expect(unreadsOf(read.body)).toEqual({ [adminId]: 1, [b.id]: 0, [c.id]: 0 });
    // naming another member is refused and changes nothing
    const forOther = await server.request('POST', `/api/chats/${chat.id}/read`, {
      token: c.token,
      body: { userId: adminId },
    });
    expect(forOther).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    const now = await server.request('GET', `/api/chats/${chat.id}`, { token: tenant.token });
    expect(unreadsOf(now.body)[adminId]).toBe(1);
    // no userId is the caller
    const own = await server.request('POST', `/api/chats/${chat.id}/read`, { token: tenant.token, body: {} });
    expect(unreadsOf(own.body)[adminId]).toBe(0);

    const blank = await server.request('POST', `/api/chats/${chat.id}/messages`, {
      token: b.token,
      body: { message: '   ' },
    });
    expect(blank).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });

  it("answers the caller's unread total over all its chats, beyond the first page of the list", async () => {
    const t = await server.createTenant();
    const x = await createLoggedUser(server, t, { name: 'Xena' });
    const y = await createLoggedUser(server, t, { name: 'Yuri' });
    const unreads = async (token: string) => {
      const res = await server.request('GET', '/api/chats/unreads', { token });
      expect(res.status).toBe(200);
      return res.body as { unreads: number; chats: { chatId: number; unreads: number }[] };
    };
    expect(await unreads(x.token)).toEqual({ unreads: 0, chats: [] });
    // 22 chats: the oldest two fall off the list's first page (20), and their messages still count
    const made: number[] = [];
    for (let i = 0; i < 22; i += 1) {
      made.push((await newChat(t.token, [{ id: x.id }, { id: y.id }])).body.id);
    }
    for (const [i, id] of made.entries()) {
      for (let k = 0; k < (i < 2 ? 2 : 1); k += 1) {
        await server.request('POST', `/api/chats/${id}/messages`, { token: t.token, body: { message: `m${k}` } });
      }
    }
    for (const id of made.slice(2)) {
      // the newer chats come first: leave the oldest two off the first page
      await server.request('PUT', `/api/chats/${id}`, { token: t.token, body: { title: `Chat ${id}` } });
    }
    const page = await server.request('GET', '/api/chats', { token: x.token });
    expect(page.body.records.map((chat: { id: number }) => chat.id)).not.toContain(made[0]);
    expect(await unreads(x.token)).toEqual({
      unreads: 24,
      chats: made.map((chatId, i) => ({ chatId, unreads: i < 2 ? 2 : 1 })),
    });
    // the sender has read everything; a read clears one chat; Yuri's counts are his own
    expect(await unreads(t.token)).toEqual({ unreads: 0, chats: [] });
    await server.request('POST', `/api/chats/${made[0]}/read`, { token: x.token, body: {} });
    expect((await unreads(x.token)).unreads).toBe(22);
    expect((await unreads(y.token)).unreads).toBe(24);
    // a chat Xena is taken out of no longer counts for her
    await server.request('PUT', `/api/chats/${made[1]}`, { token: t.token, body: { users: [{ id: y.id }] } });
    const after = await unreads(x.token);
    expect(after.unreads).toBe(20);
    expect(after.chats.map((chat) => chat.chatId)).not.toContain(made[1]);
  });

  it('pages messages from the newest, each page oldest first (the ancestor prepends older pages)', async () => {
    const { body: chat } = await newChat(tenant.token, [{ id: b.id }]);
    for (let i = 1; i <= 25; i += 1) {
      await server.request('POST', `/api/chats/${chat.id}/messages`, {
        token: i % 2 ? tenant.token : b.token,
        body: { message: `m${i}` },
      });
    }
    const page1 = await server.request('GET', `/api/chats/${chat.id}/messages`, { token: b.token });
    expect(page1.body).toMatchObject({ count: 25, hasMore: true });
    expect(page1.body.records.map((m: { message: string }) => m.message)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i + 6}`),
    );
    expect(page1.body.records[0].sender).toMatchObject({ id: b.id, name: 'Bruna' });
    const page2 = await server.request('GET', `/api/chats/${chat.id}/messages`, {
      token: b.token,
      query: { pageNumber: '2' },
    });
    expect(page2.body).toMatchObject({ count: 25, hasMore: false });
    expect(page2.body.records.map((m: { message: string }) => m.message)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('needs the plan flag useInternalChat (403 on every route)', async () => {
    const t = await server.createTenant();
    const x = await createUser(server, t);
    const { body: chat } = await newChat(t.token, [{ id: x.id }]);
    const sup = await server.superLogin();
    const plan = await createPlan(server, sup.token, { useInternalChat: false });
    expect(
      (await server.request('PUT', `/api/companies/${t.companyId}`, { token: sup.token, body: { planId: plan.id } }))
        .status,
    ).toBe(200);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/chats'],
      ['GET', '/api/chats/unreads'],
      ['GET', `/api/chats/${chat.id}`],
      ['POST', '/api/chats', { title: 'x', users: [{ id: x.id }] }],
      ['PUT', `/api/chats/${chat.id}`, { title: 'x' }],
      ['DELETE', `/api/chats/${chat.id}`],
      ['GET', `/api/chats/${chat.id}/messages`],
      ['POST', `/api/chats/${chat.id}/messages`, { message: 'x' }],
      ['POST', `/api/chats/${chat.id}/read`, {}],
    ];
    for (const [method, path, body] of calls) {
      expect(await server.request(method, path, { token: t.token, body }), `${method} ${path}`).toMatchObject({
        status: 403,
        body: { error: 'ERR_PLAN_FEATURE_DISABLED' },
      });
    }
  });
});

describe('internal chat events reach the members only', () => {
  it("create, messages, read, edit and delete are heard by the chat's members and by nobody else", async () => {
    const cid = tenant.companyId;
    const d = await createLoggedUser(server, tenant, { name: 'Dora' });
    const sockets = {
      admin: await openSocket(server, tenant.token),
      b: await openSocket(server, b.token),
      c: await openSocket(server, c.token),
      d: await openSocket(server, d.token),
    };
    const heard = {
      admin: recordEvents(sockets.admin),
      b: recordEvents(sockets.b),
      c: recordEvents(sockets.c),
      d: recordEvents(sockets.d),
    };
    try {
      const { body: chat } = await newChat(tenant.token, [{ id: b.id }], 'Secret plans');
      // company-{id}-chat-user-{userId}: each member's own event
      const created = await heard.b.waitFor(`company-${cid}-chat-user-${b.id}`, (p) => p.action === 'create');
      expect(created.record).toMatchObject({ id: chat.id, uuid: chat.uuid, title: 'Secret plans' });
      await heard.admin.waitFor(`company-${cid}-chat-user-${tenant.user.id}`, (p) => p.record.id === chat.id);

      await server.request('POST', `/api/chats/${chat.id}/messages`, {
        token: tenant.token,
        body: { message: 'psst' },
      });
      // the ancestor's popover reads newMessage.chat.users and senderId; its page data.newMessage and data.chat
      const onChat = await heard.b.waitFor(`company-${cid}-chat`, (p) => p.action === 'new-message');
      expect(onChat.newMessage).toMatchObject({ message: 'psst', senderId: tenant.user.id, chatId: chat.id });
      expect(unreadsOf(onChat.newMessage.chat)[b.id]).toBe(1);
      expect(onChat.chat).toMatchObject({ id: chat.id, lastMessage: expect.stringContaining('psst') });
      await heard.b.waitFor(`company-${cid}-chat-${chat.id}`, (p) => p.action === 'new-message');
      await heard.admin.waitFor(`company-${cid}-chat-${chat.id}`, (p) => p.action === 'new-message');

      await server.request('POST', `/api/chats/${chat.id}/read`, { token: b.token, body: { userId: b.id } });
      const update = await heard.admin.waitFor(`company-${cid}-chat-${chat.id}`, (p) => p.action === 'update');
      expect(unreadsOf(update.chat)[b.id]).toBe(0);

      // Caio joins: he hears the create-like update on his own event, and the next message
      await server.request('PUT', `/api/chats/${chat.id}`, {
        token: tenant.token,
        body: { users: [{ id: b.id }, { id: c.id }] },
      });
      await heard.c.waitFor(
        `company-${cid}-chat-user-${c.id}`,
        (p) => p.action === 'update' && p.record.id === chat.id,
      );
      // Bruna leaves: she is told to drop it, then hears nothing of it
      await server.request('PUT', `/api/chats/${chat.id}`, { token: tenant.token, body: { users: [{ id: c.id }] } });
      await heard.b.waitFor(`company-${cid}-chat`, (p) => p.action === 'delete' && p.id === chat.id);
      const bCount = heard.b.heard.length;
      await server.request('POST', `/api/chats/${chat.id}/messages`, { token: c.token, body: { message: 'after' } });
      await heard.admin.waitFor(
        `company-${cid}-chat`,
        (p) => p.action === 'new-message' && p.newMessage.message === 'after',
      );

      await server.request('DELETE', `/api/chats/${chat.id}`, { token: tenant.token });
      await heard.c.waitFor(`company-${cid}-chat`, (p) => p.action === 'delete' && p.id === chat.id);
      await heard.admin.waitFor(`company-${cid}-chat`, (p) => p.action === 'delete' && p.id === chat.id);

      // Dora, never a member, is live (she hears her own chat) but heard nothing of this one
      const { body: hers } = await newChat(d.token, [{ id: c.id }]);
      await heard.d.waitFor(`company-${cid}-chat-user-${d.id}`, (p) => p.record.id === hers.id);
      const about = (h: { event: string; payload: unknown }) =>
        h.event.includes('-chat') && JSON.stringify(h.payload).includes(`"id":${chat.id},`);
      expect(heard.d.heard.filter(about)).toEqual([]);
      expect(JSON.stringify(heard.d.heard)).not.toContain('psst');
      expect(JSON.stringify(heard.d.heard)).not.toContain('Secret plans');
      expect(heard.b.heard.slice(bCount).filter((h) => JSON.stringify(h.payload).includes('after'))).toEqual([]);
    } finally {
      for (const s of Object.values(sockets)) s.disconnect();
    }
  });
});
