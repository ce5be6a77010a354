import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { rooms } from '@zelo/shared';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createLoggedUser, openSocket, recordEvents, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { mediaDir } from '../messages/media';

let server: TTestServer;
let superToken: string;
let tenant: TTenant;
let userToken: string;
beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.superLogin()).token;
  tenant = await server.createTenant();
  userToken = (await createLoggedUser(server, tenant)).token;
});
afterAll(() => server.close());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 3)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

type TRecord = {
  id: number;
  title: string;
  text: string;
  priority: number;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: string;
  updatedAt: string;
};

const add = async (fields: Record<string, unknown> = {}) => {
  const res = await server.request('POST', '/api/announcements', {
    token: superToken,
    body: { title: unique('Notice'), text: 'Maintenance tonight', ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as TRecord;
};

const upload = async (id: number, data: Buffer, name: string, token = superToken, type = 'image/png') => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${server.url}/api/announcements/${id}/media-upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });

  return { status: res.status, body: (await res.json()) as any };
};

const stored = (name: string) => existsSync(join(mediaDir(server.ctx.config), name));
const rowOf = async (id: number) =>
  (await server.database.executeSql('select * from announcements where id = $1', [id])).rows[0] as
    | Record<string, unknown>
    | undefined;

describe('announcements: the super user writes them', () => {
  it('creates with the defaults, reads, updates (the ancestor sends its whole record) and deletes', async () => {
    const created = await add({ title: 'Welcome' });
    expect(created).toMatchObject({ title: 'Welcome', text: 'Maintenance tonight', priority: 3, status: true });
    expect(created).toMatchObject({ mediaPath: null, mediaName: null });
    expect(await server.request('GET', `/api/announcements/${created.id}`, { token: superToken })).toMatchObject({
      status: 200,
      body: created,
    });

    // AnnouncementModal: `{...record, ...values}` with the select's numbers and a string status
    const updated = await server.request('PUT', `/api/announcements/${created.id}`, {
      token: superToken,
      body: { ...created, companyId: 1, mediaPath: 'forged.png', title: 'Welcome 2', priority: '1', status: 'false' },
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { id: created.id, title: 'Welcome 2', priority: 1, status: false, mediaPath: null },
    });
    expect(await rowOf(created.id)).toMatchObject({ company_id: null, media_path: null });

    expect((await server.request('DELETE', `/api/announcements/${created.id}`, { token: superToken })).status).toBe(
      204,
    );
    expect(await server.request('GET', `/api/announcements/${created.id}`, { token: superToken })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_ANNOUNCEMENT_FOUND' },
    });
    const missing: [string, string, unknown?][] = [
      ['PUT', '', { title: 'x' }],
      ['DELETE', ''],
      ['DELETE', '/media-upload'],
    ];
    for (const [method, tail, body] of missing) {
      const res = await server.request(method, `/api/announcements/${created.id}${tail}`, { token: superToken, body });
      expect(res, `${method} ${tail}`).toMatchObject({ status: 404, body: { error: 'ERR_NO_ANNOUNCEMENT_FOUND' } });
    }
  });

  it('a company admin or user may not write them (403) and nothing changes', async () => {
    const kept = await add({ title: 'Kept' });
    const before = await countRows(server, 'select count(*) as n from announcements');
    for (const token of [tenant.token, userToken]) {
      const routes: [string, string, unknown?][] = [
        ['POST', '/api/announcements', { title: 'Evil', text: 'Evil' }],
        ['PUT', `/api/announcements/${kept.id}`, { title: 'Evil' }],
        ['DELETE', `/api/announcements/${kept.id}`],
        ['DELETE', `/api/announcements/${kept.id}/media-upload`],
      ];
      for (const [method, path, body] of routes) {
        const res = await server.request(method, path, { token, body });
        expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
      }
      const image = await upload(kept.id, PNG, 'evil.png', token);
      expect(image).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
    expect(await countRows(server, 'select count(*) as n from announcements')).toBe(before);
    expect(await rowOf(kept.id)).toMatchObject({ title: 'Kept', media_path: null });
    expect((await server.request('GET', '/api/announcements')).status).toBe(401);
  });

  it('validates the body: title and text required, priority 1 to 3, status a yes/no; nothing is written', async () => {
    const before = await countRows(server, 'select count(*) as n from announcements');
    const cases: [Record<string, unknown>, string][] = [
      [{ text: 'x' }, 'title'],
      [{ title: '   ', text: 'x' }, 'title'],
      [{ title: 't'.repeat(201), text: 'x' }, 'title'],
      [{ title: 'Title' }, 'text'],
      [{ title: 'Title', text: '' }, 'text'],
      [{ title: 'Title', text: 'x', priority: 0 }, 'priority'],
      [{ title: 'Title', text: 'x', priority: 4 }, 'priority'],
      [{ title: 'Title', text: 'x', priority: 'high' }, 'priority'],
      [{ title: 'Title', text: 'x', status: 'yes' }, 'status'],
    ];
    for (const [body, path] of cases) {
      const res = await server.request('POST', '/api/announcements', { token: superToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({
        error: 'ERR_VALIDATION',
        details: expect.arrayContaining([expect.objectContaining({ path })]),
      });
    }
    expect(await countRows(server, 'select count(*) as n from announcements')).toBe(before);
    const kept = await add({ title: 'Valid', priority: 2 });
    const res = await server.request('PUT', `/api/announcements/${kept.id}`, {
      token: superToken,
      body: { title: '', priority: 9 },
    });
    expect(res).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(await rowOf(kept.id)).toMatchObject({ title: 'Valid', priority: 2 });
  });
});

describe('announcements: who reads what', () => {
  it('company users read only the active ones; the super user lists every one but the popover only the active', async () => {
    const marker = unique('reads');
    const active = await add({ title: `${marker} active`, priority: 1 });
    const inactive = await add({ title: `${marker} inactive`, status: false });
    const other = await server.createTenant('Other');
    for (const token of [tenant.token, userToken, other.token]) {
      for (const path of ['/api/announcements', '/api/announcements/for-company']) {
        const res = await server.request('GET', path, { token, query: { searchParam: marker } });
        expect(res, path).toMatchObject({ status: 200, body: { count: 1, hasMore: false } });
        expect(res.body.records.map((r: TRecord) => r.id)).toEqual([active.id]);
      }
      expect((await server.request('GET', `/api/announcements/${active.id}`, { token })).status).toBe(200);
      expect(await server.request('GET', `/api/announcements/${inactive.id}`, { token })).toMatchObject({
        status: 404,
        body: { error: 'ERR_NO_ANNOUNCEMENT_FOUND' },
      });
    }
    const all = await server.request('GET', '/api/announcements', {
      token: superToken,
      query: { searchParam: marker },
    });
    expect(all.body.records.map((r: TRecord) => r.id)).toEqual([inactive.id, active.id]);
    const popover = await server.request('GET', '/api/announcements/for-company', {
      token: superToken,
      query: { searchParam: marker },
    });
    expect(popover.body.records.map((r: TRecord) => r.id)).toEqual([active.id]);
    expect((await server.request('GET', `/api/announcements/${inactive.id}`, { token: superToken })).status).toBe(200);
  });

  it('searches title and text (LIKE characters taken literally) and pages by 20, newest first', async () => {
    const marker = unique('page');
    const ids: number[] = [];
    for (let i = 0; i < 21; i += 1) ids.push((await add({ title: `Page ${i}`, text: `body ${marker} %_` })).id);
    const first = await server.request('GET', '/api/announcements', {
      token: userToken,
      query: { searchParam: marker },
    });
    expect(first.body).toMatchObject({ count: 21, hasMore: true });
    expect(first.body.records).toHaveLength(20);
    expect(first.body.records[0].id).toBe(ids[20]);
    const second = await server.request('GET', '/api/announcements', {
      token: userToken,
      query: { searchParam: marker, pageNumber: '2' },
    });
    expect(second.body).toMatchObject({ count: 21, hasMore: false });
    expect(second.body.records.map((r: TRecord) => r.id)).toEqual([ids[0]]);
    const literal = await server.request('GET', '/api/announcements', {
      token: userToken,
      query: { searchParam: '%_' },
    });
    expect(literal.body.records.every((r: TRecord) => r.text.includes('%_'))).toBe(true);
    const byTitle = await server.request('GET', '/api/announcements', {
      token: superToken,
      query: { searchParam: 'page 20' },
    });
    expect(byTitle.body.records.map((r: TRecord) => r.id)).toContain(ids[20]);
  });
});

describe('announcements: the image', () => {
  it('attaches a png, replaces it with a jpeg (the old file goes), removes it, and goes with its announcement', async () => {
    const notice = await add();
    const png = await upload(notice.id, PNG, 'poster.png');
    expect(png).toMatchObject({ status: 200, body: { id: notice.id, mediaName: 'poster.png' } });
    const first = png.body.mediaPath as string;
    expect(first).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(stored(first)).toBe(true);
    const served = await fetch(`${server.url}/public/${first}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');

    const jpeg = await upload(notice.id, JPEG, '../../etc/photo.jpeg', superToken, 'image/jpeg');
    expect(jpeg).toMatchObject({ status: 200, body: { mediaName: 'photo.jpeg' } });
    expect(jpeg.body.mediaPath).toMatch(/\.jpg$/);
    expect(stored(first)).toBe(false);
    expect(stored(jpeg.body.mediaPath)).toBe(true);
    // the reading users see the image too
    const read = await server.request('GET', `/api/announcements/${notice.id}`, { token: userToken });
    expect(read.body).toMatchObject({ mediaPath: jpeg.body.mediaPath, mediaName: 'photo.jpeg' });

    const removed = await server.request('DELETE', `/api/announcements/${notice.id}/media-upload`, {
      token: superToken,
    });
    expect(removed).toMatchObject({ status: 200, body: { mediaPath: null, mediaName: null } });
    expect(stored(jpeg.body.mediaPath)).toBe(false);

    const again = await upload(notice.id, PNG, 'again.png');
    expect((await server.request('DELETE', `/api/announcements/${notice.id}`, { token: superToken })).status).toBe(204);
    expect(stored(again.body.mediaPath)).toBe(false);
  });

  it('refuses what is not png or jpeg whatever its name (415), no file (400), a missing id (404), storing nothing', async () => {
    const notice = await add();
    const filesBefore = (await import('node:fs')).readdirSync(mediaDir(server.ctx.config), { withFileTypes: true });
    for (const [data, name] of [
      [GIF, 'anim.png'],
      [SVG, 'logo.png'],
      [Buffer.from('just text'), 'notes.jpg'],
    ] as const) {
      const res = await upload(notice.id, data, name);
      expect(res, name).toMatchObject({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });
    }
    const empty = new FormData();
    empty.append('title', 'no file');
    const noFile = await fetch(`${server.url}/api/announcements/${notice.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${superToken}` },
      body: empty,
    });
    expect(noFile.status).toBe(400);
    const json = await server.request('POST', `/api/announcements/${notice.id}/media-upload`, {
      token: superToken,
      body: { file: 'x' },
    });
    expect(json).toMatchObject({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });
    const missing = await upload(2_000_000_000, PNG, 'a.png');
    expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_NO_ANNOUNCEMENT_FOUND' } });
    expect(await rowOf(notice.id)).toMatchObject({ media_path: null, media_name: null });
    const filesAfter = (await import('node:fs')).readdirSync(mediaDir(server.ctx.config), { withFileTypes: true });
    expect(filesAfter.map((f) => f.name).sort()).toEqual(filesBefore.map((f) => f.name).sort());
  });
});

describe('announcements: realtime', () => {
  const EVENT = 'company-announcement';

  it('goes to every company room: active ones with their record, inactive ones as a delete; supers hear all', async () => {
    const other = await server.createTenant('Listener');
    const aSocket = await openSocket(server, userToken);
    const bSocket = await openSocket(server, other.token);
    const superSocket = await openSocket(server, superToken);
    const [a, b, sup] = [recordEvents(aSocket), recordEvents(bSocket), recordEvents(superSocket)];
    try {
      const created = await add({ title: unique('Live') });
      for (const listener of [a, b, sup]) {
        const payload = await listener.waitFor(EVENT, (p) => p.action === 'create' && p.record.id === created.id);
        expect(payload.record).toMatchObject({ title: created.title, status: true, priority: 3 });
      }

      // made inactive: companies drop it; supers get the record
      await server.request('PUT', `/api/announcements/${created.id}`, { token: superToken, body: { status: false } });
      for (const listener of [a, b]) {
        expect(await listener.waitFor(EVENT, (p) => p.action === 'delete' && p.id === created.id)).toEqual({
          action: 'delete',
          id: created.id,
        });
      }
      await sup.waitFor(EVENT, (p) => p.action === 'update' && p.record.id === created.id && !p.record.status);

      // an inactive one is never shown to the companies' sockets
      const hidden = await add({ title: unique('Hidden'), status: false, text: 'secret draft text' });
      await sup.waitFor(EVENT, (p) => p.action === 'create' && p.record.id === hidden.id);
      await a.waitFor(EVENT, (p) => p.action === 'delete' && p.id === hidden.id);
      expect(JSON.stringify(a.heard)).not.toContain('secret draft text');
      expect(JSON.stringify(b.heard)).not.toContain('secret draft text');

      await server.request('DELETE', `/api/announcements/${created.id}`, { token: superToken });
      await sup.waitFor(EVENT, (p) => p.action === 'delete' && p.id === created.id);
      // a super user's socket (also in its company's room) hears each change once, with the record
      const superHeard = sup.heard.filter((h) => h.event === EVENT);
      expect(superHeard.filter((h) => (h.payload as { action: string }).action === 'create')).toHaveLength(2);
      expect(superHeard).toHaveLength(4);
    } finally {
      for (const s of [aSocket, bSocket, superSocket]) s.disconnect();
    }
  });

  it('is sent room by room: a socket in no company room hears nothing, and a socket without a token is refused', async () => {
    const inRoom = await openSocket(server, tenant.token);
    const outside = await openSocket(server, userToken);
    const [heardIn, heardOut] = [recordEvents(inRoom), recordEvents(outside)];
    // the server takes the second socket out of every room but its own id's: only a broadcast would reach it
    const [remote] = await server.ctx.realtime.io.in(outside.id as string).fetchSockets();
    for (const room of remote.rooms) if (room !== remote.id) remote.leave(room);
    expect([...remote.rooms].some((room) => room === rooms.main(tenant.companyId))).toBe(false);

    const anonymous = io(server.url, { transports: ['websocket'], reconnection: false });
    const refused = await new Promise<string>((resolve) =>
      anonymous.once('connect_error', (err) => resolve(err.message)),
    );
    expect(refused).toBe('ERR_NOT_AUTHENTICATED');
    const anonymousHeard: string[] = [];
    anonymous.onAny((event: string) => anonymousHeard.push(event));
    try {
      const created = await add({ title: unique('Rooms') });
      await heardIn.waitFor(EVENT, (p) => p.record?.id === created.id);
      await new Promise((r) => setTimeout(r, 200));
      expect(heardOut.heard.filter((h) => h.event === EVENT)).toEqual([]);
      expect(anonymousHeard).toEqual([]);
    } finally {
      inRoom.disconnect();
      outside.disconnect();
      anonymous.disconnect();
    }
  });
});
