import { DEFAULT_QUEUE_SCHEDULES } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addOption, addQueue, nextColor } from '../../../test/catalogue-fixtures';
import {
  countRows,
  createLoggedUser,
  createPlan,
  openSocket,
  recordEvents,
  type TTenant,
  unique,
} from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let superToken: string;
let tenant: TTenant;
let userToken: string;
beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.superLogin()).token;
  tenant = await server.createTenant();
  const plan = await createPlan(server, superToken, { queues: 100 });
  await server.request('PUT', `/api/companies/${tenant.companyId}`, { token: superToken, body: { planId: plan.id } });
  userToken = (await createLoggedUser(server, tenant)).token;
});
afterAll(() => server.close());

describe('queues', () => {
  it('creates with the default schedule of spec 2 §3 and lists by orderQueue then name', async () => {
    const t = await server.createTenant();
    const b = await addQueue(server, t, { name: 'Bravo', orderQueue: 2 });
    const a = await addQueue(server, t, { name: 'alpha' });
    const c = await addQueue(server, t, { name: 'Charlie', orderQueue: 1 });
    const z = await addQueue(server, t, { name: 'Zulu', orderQueue: 1 });
    const read = await server.request('GET', `/api/queue/${b.id}`, { token: t.token });
    expect(read.body).toMatchObject({ name: 'Bravo', orderQueue: 2, schedules: DEFAULT_QUEUE_SCHEDULES });
    const list = await server.request('GET', '/api/queue', { token: t.token, query: { companyId: 1 } });
    expect(list.body.map((q: { id: number }) => q.id)).toEqual([c.id, z.id, b.id, a.id]);
  });

  it('validates the body with details (name, colour, schedules)', async () => {
    const res = await server.request('POST', '/api/queue', {
      token: tenant.token,
      body: {
        name: 'Q',
        color: '#1',
        schedules: [
          { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '18:00', endTime: '08:00' },
          { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '25:00' },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'nameShort' },
        { path: 'color', message: 'invalidColor' },
        { path: 'schedules.1.endTime', message: 'invalid' },
      ]),
    );
    const order = await server.request('POST', '/api/queue', {
      token: tenant.token,
      body: {
        name: 'Ordered',
        color: nextColor(),
        schedules: [
          { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '18:00', endTime: '08:00' },
          { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '12:00' },
        ],
      },
    });
    expect(order.status).toBe(400);
    expect(order.body.details).toEqual(
      expect.arrayContaining([
        { path: 'schedules.0.endTime', message: 'invalid' },
        { path: 'schedules.1.weekdayEn', message: 'invalid' },
      ]),
    );
  });

  it('answers the name messages of spec 2 §5 (nameRequired, nameShort, nameLong) on create and update', async () => {
    const details = async (method: string, path: string, body: unknown) => {
      const res = await server.request(method, path, { token: tenant.token, body });
      expect(res.status).toBe(400);

      return res.body.details;
    };
    expect(await details('POST', '/api/queue', { color: nextColor() })).toEqual([
      { path: 'name', message: 'nameRequired' },
    ]);
    expect(await details('POST', '/api/queue', { name: '   ', color: nextColor() })).toEqual([
      { path: 'name', message: 'nameRequired' },
    ]);
    const q = await addQueue(server, tenant);
    expect(await details('PUT', `/api/queue/${q.id}`, { name: 'x'.repeat(51) })).toEqual([
      { path: 'name', message: 'nameLong' },
    ]);
    expect(await details('PUT', `/api/queue/${q.id}`, { name: 'x', color: '#12345678901' })).toEqual([
      { path: 'name', message: 'nameShort' },
      { path: 'color', message: 'invalidColor' },
    ]);
    // not a colour at all: refused with what is wrong, nothing stored
    expect(await details('PUT', `/api/queue/${q.id}`, { color: 'zzz' })).toEqual([
      { path: 'color', message: 'invalidColor' },
    ]);
    expect(await details('PUT', `/api/queue/${q.id}`, { color: '#12g' })).toEqual([
      { path: 'color', message: 'invalidColor' },
    ]);
  });

  it('keeps a day whose times were cleared (open all day) and refuses a day with one time', async () => {
    const q = await addQueue(server, tenant);
    const schedules = [
      { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '', endTime: '' },
      { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
    ];
    const ok = await server.request('PUT', `/api/queue/${q.id}`, { token: tenant.token, body: { schedules } });
    expect(ok).toMatchObject({ status: 200, body: { schedules } });
    expect((await server.request('GET', `/api/queue/${q.id}`, { token: tenant.token })).body.schedules).toEqual(
      schedules,
    );
    const half = await server.request('PUT', `/api/queue/${q.id}`, {
      token: tenant.token,
      body: { schedules: [{ weekday: 'Sábado', weekdayEn: 'saturday', startTime: '', endTime: '12:00' }] },
    });
    expect(half).toMatchObject({
      status: 400,
      body: { error: 'ERR_VALIDATION', details: [{ path: 'schedules.0.startTime', message: 'required' }] },
    });
    expect((await server.request('GET', `/api/queue/${q.id}`, { token: tenant.token })).body.schedules).toEqual(
      schedules,
    );
  });

  it('names are unique per company (409) and colours too (ERR_QUEUE_COLOR_ALREADY_EXISTS)', async () => {
    const q = await addQueue(server, tenant);
    const sameName = await server.request('POST', '/api/queue', {
      token: tenant.token,
      body: { name: q.name.toUpperCase(), color: nextColor() },
    });
    expect(sameName).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_QUEUE' } });
    const sameColor = await server.request('POST', '/api/queue', {
      token: tenant.token,
      body: { name: unique('Other'), color: q.color.toUpperCase() },
    });
    expect(sameColor).toMatchObject({ status: 409, body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' } });
    const other = await addQueue(server, tenant);
    const update = await server.request('PUT', `/api/queue/${other.id}`, {
      token: tenant.token,
      body: { color: q.color },
    });
    expect(update).toMatchObject({ status: 409, body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS' } });
    // its own colour and name are fine
    const self = await server.request('PUT', `/api/queue/${q.id}`, {
      token: tenant.token,
      body: { name: q.name, color: q.color, greetingMessage: 'Hi' },
    });
    expect(self).toMatchObject({ status: 200, body: { greetingMessage: 'Hi' } });
    // another company may reuse both
    const t2 = await server.createTenant();
    await addQueue(server, t2, { name: q.name, color: q.color });
  });

  it("prompt and integration must be the company's own (a missing one answers its not-found code)", async () => {
    const res = await server.request('POST', '/api/queue', {
      token: tenant.token,
      body: { name: unique('Q'), color: nextColor(), promptId: 2000000000, integrationId: 2000000000 },
    });
    expect(res).toMatchObject({ status: 404, body: { error: 'ERR_NO_PROMPT_FOUND', details: [{ path: 'promptId' }] } });
  });

  it('the plan limit holds under concurrent creations', async () => {
    const t = await server.createTenant();
    const plan = await createPlan(server, superToken, { queues: 3 });
    await server.request('PUT', `/api/companies/${t.companyId}`, { token: superToken, body: { planId: plan.id } });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        server.request('POST', '/api/queue', { token: t.token, body: { name: unique('Race'), color: nextColor() } }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 403).map((a) => a.body.error)).toEqual(
      Array(5).fill('ERR_PLAN_LIMIT_QUEUES'),
    );
    expect(await countRows(server, 'select count(*) as n from queues where company_id = $1', [t.companyId])).toBe(3);
  });

  it('users read; only admins write (403)', async () => {
    const q = await addQueue(server, tenant);
    expect((await server.request('GET', '/api/queue', { token: userToken })).status).toBe(200);
    expect((await server.request('GET', `/api/queue/${q.id}`, { token: userToken })).status).toBe(200);
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/queue', { name: unique('Q'), color: nextColor() }],
      ['PUT', `/api/queue/${q.id}`, { name: 'Nope' }],
      ['DELETE', `/api/queue/${q.id}`],
      ['POST', '/api/queue-options', { queueId: q.id, title: 'Nope' }],
    ];
    for (const [method, path, body] of calls) {
      expect(await server.request(method, path, { token: userToken, body }), `${method} ${path}`).toMatchObject({
        status: 403,
        body: { error: 'ERR_NO_PERMISSION' },
      });
    }
  });

  it('announces update and delete, and delete takes the options with it', async () => {
    const socket = await openSocket(server, userToken);
    const events = recordEvents(socket);
    const event = `company-${tenant.companyId}-queue`;
    try {
      const q = await addQueue(server, tenant);
      await events.waitFor(event, (p) => p.action === 'update' && p.queue.id === q.id);
      await addOption(server, tenant, { queueId: q.id });
      expect((await server.request('DELETE', `/api/queue/${q.id}`, { token: tenant.token })).status).toBe(204);
      await events.waitFor(event, (p) => p.action === 'delete' && p.queueId === q.id);
      expect(await countRows(server, 'select count(*) as n from queue_options where queue_id = $1', [q.id])).toBe(0);
      expect(await server.request('GET', `/api/queue/${q.id}`, { token: tenant.token })).toMatchObject({
        status: 404,
        body: { error: 'ERR_NO_QUEUE_FOUND' },
      });
    } finally {
      socket.close();
    }
  });
});

describe('queue options', () => {
  const list = async (queueId: number, parentId: number | string = -1) =>
    (await server.request('GET', '/api/queue-options', { token: userToken, query: { queueId, parentId } })).body as {
      id: number;
      option: string;
      title: string;
    }[];

  it('numbers options automatically per level and lists a level (-1 = top)', async () => {
    const q = await addQueue(server, tenant);
    const one = await addOption(server, tenant, { queueId: q.id, title: 'Sales' });
    const two = await addOption(server, tenant, { queueId: q.id, title: 'Support' });
    const child = await addOption(server, tenant, { queueId: q.id, parentId: one.id, title: 'New' });
    expect([one.option, two.option, child.option]).toEqual(['1', '2', '1']);
    expect((await list(q.id)).map((o) => o.id)).toEqual([one.id, two.id]);
    expect((await list(q.id, one.id)).map((o) => o.id)).toEqual([child.id]);
    const noParent = await server.request('GET', '/api/queue-options', { token: userToken, query: { queueId: q.id } });
    expect(noParent.body).toHaveLength(2);
  });

  it('a given key must be free at its level (409); update changes title, message and key', async () => {
    const q = await addQueue(server, tenant);
    const a = await addOption(server, tenant, { queueId: q.id });
    const b = await addOption(server, tenant, { queueId: q.id, option: '7' });
    const dup = await server.request('POST', '/api/queue-options', {
      token: tenant.token,
      body: { queueId: q.id, title: 'Dup', option: '7' },
    });
    expect(dup).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_QUEUE_OPTION' } });
    const next = await addOption(server, tenant, { queueId: q.id });
    expect(next.option).toBe('8');
    const clash = await server.request('PUT', `/api/queue-options/${b.id}`, {
      token: tenant.token,
      body: { option: '1' },
    });
    expect(clash.status).toBe(409);
    const ok = await server.request('PUT', `/api/queue-options/${a.id}`, {
      token: tenant.token,
      body: { title: 'Renamed', message: 'Pick one', queueId: 999, parentId: 5 },
    });
    expect(ok).toMatchObject({
      status: 200,
      body: { title: 'Renamed', message: 'Pick one', queueId: q.id, parentId: null },
    });
  });

  it('a parent must belong to the same queue; the queue must exist', async () => {
    const q1 = await addQueue(server, tenant);
    const q2 = await addQueue(server, tenant);
    const p = await addOption(server, tenant, { queueId: q1.id });
    const cross = await server.request('POST', '/api/queue-options', {
      token: tenant.token,
      body: { queueId: q2.id, parentId: p.id, title: 'Cross' },
    });
    expect(cross).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', details: [{ path: 'parentId' }] } });
    const missing = await server.request('POST', '/api/queue-options', {
      token: tenant.token,
      body: { queueId: 2000000000, title: 'Orphan' },
    });
    expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
    expect(
      await server.request('GET', '/api/queue-options', { token: tenant.token, query: { queueId: 2000000000 } }),
    ).toMatchObject({ status: 404, body: { error: 'ERR_NO_QUEUE_FOUND' } });
    expect(await server.request('GET', '/api/queue-options', { token: tenant.token })).toMatchObject({
      status: 400,
      body: { error: 'ERR_VALIDATION' },
    });
  });

  it('deleting an option deletes its children and renumbers the remaining siblings 1..n', async () => {
    const q = await addQueue(server, tenant);
    const o = [];
    for (let i = 0; i < 4; i += 1) o.push(await addOption(server, tenant, { queueId: q.id, title: `Opt ${i}` }));
    const child = await addOption(server, tenant, { queueId: q.id, parentId: o[1].id });
    await addOption(server, tenant, { queueId: q.id, parentId: child.id });
    expect((await server.request('DELETE', `/api/queue-options/${o[1].id}`, { token: tenant.token })).status).toBe(204);
    const rest = await list(q.id);
    expect(rest.map((r) => [r.id, r.option])).toEqual([
      [o[0].id, '1'],
      [o[2].id, '2'],
      [o[3].id, '3'],
    ]);
    expect(await countRows(server, 'select count(*) as n from queue_options where queue_id = $1', [q.id])).toBe(3);
    expect(await server.request('GET', `/api/queue-options/${child.id}`, { token: tenant.token })).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_QUEUE_OPTION_FOUND' },
    });
  });

  it('deleting a nested option renumbers its own level only, at any depth', async () => {
    const q = await addQueue(server, tenant);
    const top1 = await addOption(server, tenant, { queueId: q.id });
    const top2 = await addOption(server, tenant, { queueId: q.id });
    const kids = [];
    for (let i = 0; i < 3; i += 1) kids.push(await addOption(server, tenant, { queueId: q.id, parentId: top1.id }));
    const grand = [];
    for (let i = 0; i < 3; i += 1) grand.push(await addOption(server, tenant, { queueId: q.id, parentId: kids[2].id }));
    expect(grand.map((g) => g.option)).toEqual(['1', '2', '3']);
    // another queue's level keeps its numbers
    const other = await addQueue(server, tenant);
    const otherOptions = [
      await addOption(server, tenant, { queueId: other.id }),
      await addOption(server, tenant, { queueId: other.id }),
    ];

    expect((await server.request('DELETE', `/api/queue-options/${grand[0].id}`, { token: tenant.token })).status).toBe(
      204,
    );
    expect((await list(q.id, kids[2].id)).map((r) => [r.id, r.option])).toEqual([
      [grand[1].id, '1'],
      [grand[2].id, '2'],
    ]);
    expect((await server.request('DELETE', `/api/queue-options/${kids[0].id}`, { token: tenant.token })).status).toBe(
      204,
    );
    expect((await list(q.id, top1.id)).map((r) => [r.id, r.option])).toEqual([
      [kids[1].id, '1'],
      [kids[2].id, '2'],
    ]);
    // the grandchildren moved with their parent's new number, their own numbers kept
    expect((await list(q.id, kids[2].id)).map((r) => r.option)).toEqual(['1', '2']);
    expect((await list(q.id)).map((r) => [r.id, r.option])).toEqual([
      [top1.id, '1'],
      [top2.id, '2'],
    ]);
    expect((await list(other.id)).map((r) => [r.id, r.option])).toEqual(otherOptions.map((o) => [o.id, o.option]));
  });

  it('concurrent creations at one level get distinct numbers', async () => {
    const q = await addQueue(server, tenant);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        server.request('POST', '/api/queue-options', { token: tenant.token, body: { queueId: q.id, title: `C${i}` } }),
      ),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(answers.map((a) => Number(a.body.option)).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
