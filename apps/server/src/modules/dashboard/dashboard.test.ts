import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser, createUser, type TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { insertContact } from '../../../test/inbox';
import { foldAllDeltas } from './dashboard.fold';
import { readFigures } from './dashboard.repo';

/**
 * Dashboard figures against hand-computed fixtures. The same attendance cycles are written for a company in
 * America/Sao_Paulo (UTC−3) and one in Asia/Tokyo (UTC+9), so a cycle near midnight lands on different days.
 */

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sqlRows = async (text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as Record<string, unknown>[];

/** a company in a zone, its admin logged in again (so the session reads the zone) */
const tenantIn = async (timeZone: string) => {
  const tenant = await server.createTenant('Dash');
  await sqlRows('update companies set timezone = $1 where id = $2', [timeZone, tenant.companyId]);
  const session = await server.login(tenant.email, tenant.password);

  return { ...tenant, token: session.token };
};

const addTicket = async (companyId: number, status: string, contactCreatedAt = '2025-01-01T00:00:00Z') => {
  const contact = await insertContact(server, companyId);
  await sqlRows('update contacts set created_at = $1 where id = $2', [contactCreatedAt, contact.id]);
  const [row] = await sqlRows('insert into tickets (company_id, contact_id, status) values ($1, $2, $3) returning id', [
    companyId,
    contact.id,
    status,
  ]);

  return Number(row.id);
};

type TCycle = {
  userId?: number | null;
  createdAt: string;
  startedAt?: string | null;
  ratingAt?: string | null;
  finishedAt?: string | null;
};
const addCycle = async (companyId: number, ticketId: number, c: TCycle) => {
  const [row] = await sqlRows(
    `insert into ticket_trackings (company_id, ticket_id, user_id, created_at, queued_at, started_at, rating_at, finished_at)
     values ($1, $2, $3, $4, $4, $5, $6, $7) returning id`,
    [companyId, ticketId, c.userId ?? null, c.createdAt, c.startedAt ?? null, c.ratingAt ?? null, c.finishedAt ?? null],
  );

  return Number(row.id);
};
const addRating = async (
  companyId: number,
  ticketId: number,
  trackingId: number,
  userId: number,
  rate: number,
  at: string,
) =>
  sqlRows(
    'insert into user_ratings (company_id, ticket_id, ticket_tracking_id, user_id, rate, created_at) values ($1, $2, $3, $4, $5, $6)',
    [companyId, ticketId, trackingId, userId, rate, at],
  );

/**
 * The fixture (UTC):
 * - c1 Ana: queued 03-10 02:30, accepted 02:40 (wait 10), closed 03:10 (talk 30); its contact made 03-10 02:00
 * - c2 Bruno: queued 14:00, accepted 14:20 (wait 20), rating asked 15:00 (talk 40), rated 3 and finished 15:05;
 *   its contact made 03-10 12:00
 * - c3 Ana, month-long: queued 02-01 10:00, accepted 02-03 10:00 (wait 2 days), closed 03-10 10:00 (talk 35
 *   days = 50,400 min), rated 1 at 03-10 10:00
 * - c4: queued 03-10 20:00, waiting (ticket pending); c5: an old cycle of an open ticket (01-01)
 */
const seed = async (tenant: TTenant) => {
  const ana = await createUser(server, tenant, { name: 'Ana' });
  const bruno = await createUser(server, tenant, { name: 'Bruno' });
  const t1 = await addTicket(tenant.companyId, 'closed', '2025-03-10T02:00:00Z');
  await addCycle(tenant.companyId, t1, {
    userId: ana.id,
    createdAt: '2025-03-10T02:30:00Z',
    startedAt: '2025-03-10T02:40:00Z',
    finishedAt: '2025-03-10T03:10:00Z',
  });
  const t2 = await addTicket(tenant.companyId, 'closed', '2025-03-10T12:00:00Z');
  const c2 = await addCycle(tenant.companyId, t2, {
    userId: bruno.id,
    createdAt: '2025-03-10T14:00:00Z',
    startedAt: '2025-03-10T14:20:00Z',
    ratingAt: '2025-03-10T15:00:00Z',
    finishedAt: '2025-03-10T15:05:00Z',
  });
  await addRating(tenant.companyId, t2, c2, bruno.id, 3, '2025-03-10T15:05:00Z');
  const t3 = await addTicket(tenant.companyId, 'closed');
  const c3 = await addCycle(tenant.companyId, t3, {
    userId: ana.id,
    createdAt: '2025-02-01T10:00:00Z',
    startedAt: '2025-02-03T10:00:00Z',
    finishedAt: '2025-03-10T10:00:00Z',
  });
  await addRating(tenant.companyId, t3, c3, ana.id, 1, '2025-03-10T10:00:00Z');
  const t4 = await addTicket(tenant.companyId, 'pending');
  await addCycle(tenant.companyId, t4, { createdAt: '2025-03-10T20:00:00Z' });
  const t5 = await addTicket(tenant.companyId, 'open');
  await addCycle(tenant.companyId, t5, {
    userId: bruno.id,
    createdAt: '2025-01-01T12:00:00Z',
    startedAt: '2025-01-01T12:05:00Z',
  });

  return { ana, bruno };
};

const get = (tenant: { token: string }, path: string, query: Record<string, string | number> = {}) =>
  server.request('GET', path, { token: tenant.token, query });

describe('dashboard', () => {
  let saoPaulo: TTenant;
  let tokyo: TTenant;
  let spUsers: Awaited<ReturnType<typeof seed>>;
  let tkUsers: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    saoPaulo = await tenantIn('America/Sao_Paulo');
    tokyo = await tenantIn('Asia/Tokyo');
    spUsers = await seed(saoPaulo);
    tkUsers = await seed(tokyo);
  });

  it('counts one day of the company zone: São Paulo', async () => {
    const res = await get(saoPaulo, '/api/dashboard', { date_from: '2025-03-10', date_to: '2025-03-10' });
    expect(res.status).toBe(200);
    // window 03-10 03:00Z … 03-11 03:00Z: c1, c2, c3 finished; only c2 accepted in it; contact of t2 is new
    expect(res.body.counters).toEqual({
      supportHappening: 1,
      supportPending: 1,
      supportFinished: 3,
      leads: 1,
      avgSupportTime: 16823.33, // (30 + 40 + 50,400) / 3
      avgWaitTime: 20,
    });
    const byName = Object.fromEntries(res.body.attendants.map((a: { name: string }) => [a.name, a]));
    expect(byName.Ana).toEqual({
      id: spUsers.ana.id,
      name: 'Ana',
      rating: 1,
      tickets: 2,
      avgSupportTime: 25215,
      online: false,
    });
    expect(byName.Bruno).toEqual({
      id: spUsers.bruno.id,
      name: 'Bruno',
      rating: 3,
      tickets: 1,
      avgSupportTime: 40,
      online: false,
    });
    expect(res.body.attendants).toHaveLength(3); // and the admin, with nothing
  });

  it('counts one day of the company zone: Tokyo (the cycle near midnight moves a day)', async () => {
    const res = await get(tokyo, '/api/dashboard', { date_from: '2025-03-10', date_to: '2025-03-10' });
    // window 03-09 15:00Z … 03-10 15:00Z: c1, c3 finished (c2 at 15:05 is the next day); c1, c2 accepted
    expect(res.body.counters).toEqual({
      supportHappening: 1,
      supportPending: 1,
      supportFinished: 2,
      leads: 2,
      avgSupportTime: 25215,
      avgWaitTime: 15,
    });
    const byName = Object.fromEntries(res.body.attendants.map((a: { name: string }) => [a.name, a]));
    expect(byName.Ana).toMatchObject({ id: tkUsers.ana.id, tickets: 2, rating: 1, avgSupportTime: 25215 });
    expect(byName.Bruno).toMatchObject({ id: tkUsers.bruno.id, tickets: 0, rating: 0, avgSupportTime: 0 });
  });

  it('counts spans longer than a month in whole minutes (35 days of talk, 2 days of wait)', async () => {
    const res = await get(saoPaulo, '/api/dashboard', { date_from: '2025-02-01', date_to: '2025-03-10' });
    // finished in Feb 1 … Mar 10: c1, c2, c3; accepted: c1 (10), c2 (20), c3 (2,880)
    expect(res.body.counters).toMatchObject({ supportFinished: 3, avgWaitTime: 970, avgSupportTime: 16823.33 });
    const ana = res.body.attendants.find((a: { name: string }) => a.name === 'Ana');
    expect(ana.avgSupportTime).toBe(25215); // (30 + 50,400) / 2; age()'s "1 mon 7 days" would say less
  });

  it('`days` is the last N days up to now; nothing given is today', async () => {
    const t = await tenantIn('America/Sao_Paulo');
    const now = Date.now();
    const iso = (msAgo: number) => new Date(now - msAgo).toISOString();
    const ticket = await addTicket(t.companyId, 'closed');
    const user = await createUser(server, t, { name: 'Carla' });
    await addCycle(t.companyId, ticket, {
      userId: user.id,
      createdAt: iso(46 * 86_400_000),
      startedAt: iso(45 * 86_400_000 + 3_600_000),
      finishedAt: iso(3_600_000),
    });
    await addCycle(t.companyId, await addTicket(t.companyId, 'closed'), {
      createdAt: iso(10 * 86_400_000),
      finishedAt: iso(5 * 86_400_000),
    });
    const three = await get(t, '/api/dashboard', { days: 3 });
    expect(three.body.counters).toMatchObject({ supportFinished: 1, avgSupportTime: 64800 }); // 45 days
    const seven = await get(t, '/api/dashboard', { days: 7 });
    expect(seven.body.counters.supportFinished).toBe(2);
    const ninety = await get(t, '/api/dashboard', { days: 90 });
    expect(ninety.body.counters).toMatchObject({ supportFinished: 2, avgWaitTime: 1380 }); // queued 46 d ago, accepted 45 d − 1 h ago
    const today = await get(t, '/api/dashboard');
    expect(today.status).toBe(200);
    expect(today.body.counters.leads).toBe(0); // contacts here were made in 2025
  });

  it('tickets per day are chronological, per the company zone', async () => {
    const sp = await get(saoPaulo, '/api/dashboard/ticketsDay', { initialDate: '2025-03-09', finalDate: '2025-03-10' });
    expect(sp.body).toEqual({
      data: [
        { data: '09/03/2025', total: 1 },
        { data: '10/03/2025', total: 2 },
      ],
      count: 3,
    });
    const tk = await get(tokyo, '/api/dashboard/ticketsDay', { initialDate: '2025-03-09', finalDate: '2025-03-10' });
    expect(tk.body).toEqual({
      data: [
        { data: '09/03/2025', total: 0 },
        { data: '10/03/2025', total: 2 },
      ],
      count: 2,
    });
    // across months and years, in date order (never sorted as text)
    const long = await get(saoPaulo, '/api/dashboard/ticketsDay', {
      initialDate: '2024-12-31',
      finalDate: '2025-03-10',
    });
    const labels = long.body.data.map((d: { data: string }) => d.data);
    expect(labels[0]).toBe('31/12/2024');
    expect(labels[1]).toBe('01/01/2025');
    expect(labels.at(-1)).toBe('10/03/2025');
    expect(labels).toHaveLength(70);
    expect(long.body.count).toBe(5);
  });

  it('tickets per hour for a single day, in the company clock', async () => {
    const sp = await get(saoPaulo, '/api/dashboard/ticketsDay', { initialDate: '2025-03-10', finalDate: '2025-03-10' });
    expect(sp.body.data).toHaveLength(24);
    expect(sp.body.data.filter((h: { total: number }) => h.total > 0)).toEqual([
      { horario: 11, total: 1 },
      { horario: 17, total: 1 },
    ]);
    expect(sp.body.count).toBe(2);
    const tk = await get(tokyo, '/api/dashboard/ticketsDay', { initialDate: '2025-03-10', finalDate: '2025-03-10' });
    expect(tk.body.data.filter((h: { total: number }) => h.total > 0)).toEqual([
      { horario: 11, total: 1 },
      { horario: 23, total: 1 },
    ]);
    const spPrev = await get(saoPaulo, '/api/dashboard/ticketsDay', {
      initialDate: '2025-03-09',
      finalDate: '2025-03-09',
    });
    expect(spPrev.body.data.filter((h: { total: number }) => h.total > 0)).toEqual([{ horario: 23, total: 1 }]);
  });

  it('tickets per attendant, everybody listed', async () => {
    const sp = await get(saoPaulo, '/api/dashboard/ticketsUsers', {
      initialDate: '2025-03-10',
      finalDate: '2025-03-10',
    });
    expect(sp.body.count).toBe(3);
    expect(sp.body.data).toHaveLength(3);
    expect(sp.body.data).toEqual(
      expect.arrayContaining([
        { nome: 'Ana', quantidade: 2 },
        { nome: 'Bruno', quantidade: 1 },
      ]),
    );
    const tk = await get(tokyo, '/api/dashboard/ticketsUsers', { initialDate: '2025-03-10', finalDate: '2025-03-10' });
    expect(tk.body.data).toEqual(expect.arrayContaining([{ nome: 'Bruno', quantidade: 0 }]));
    expect(tk.body.count).toBe(2);
  });

  it("always the caller's company: another company's rows and a companyId param are ignored", async () => {
    const other = await tenantIn('America/Sao_Paulo');
    const q = { companyId: saoPaulo.companyId, date_from: '2025-03-10', date_to: '2025-03-10' };
    const dash = await get(other, '/api/dashboard', q);
    expect(dash.body.counters).toEqual({
      supportHappening: 0,
      supportPending: 0,
      supportFinished: 0,
      leads: 0,
      avgSupportTime: 0,
      avgWaitTime: 0,
    });
    expect(dash.body.attendants.map((a: { name: string }) => a.name)).not.toContain('Ana');
    const chart = { companyId: saoPaulo.companyId, initialDate: '2025-03-09', finalDate: '2025-03-10' };
    expect((await get(other, '/api/dashboard/ticketsDay', chart)).body.count).toBe(0);
    const users = await get(other, '/api/dashboard/ticketsUsers', chart);
    expect(users.body.count).toBe(0);
    expect(users.body.data).toHaveLength(1); // its own admin
  });

  it('admins only; a session is required', async () => {
    const attendant = await createLoggedUser(server, saoPaulo);
    for (const path of ['/api/dashboard', '/api/dashboard/ticketsUsers', '/api/dashboard/ticketsDay']) {
      expect((await server.request('GET', path)).status).toBe(401);
      expect(await get(attendant, path)).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
  });

  it('refuses bad parameters with 400 and caps huge ranges', async () => {
    const bad: [string, Record<string, string>][] = [
      ['/api/dashboard', { date_from: '2025-02-30' }],
      ['/api/dashboard', { date_from: '10/03/2025' }],
      ['/api/dashboard', { date_from: '2025-03-10', date_to: '2025-03-01' }],
      ['/api/dashboard', { days: 'abc' }],
      ['/api/dashboard', { days: '-3' }],
      ['/api/dashboard', { date_to: "2025-03-10' or 1=1 --" }],
      ['/api/dashboard/ticketsDay', { initialDate: 'x' }],
      ['/api/dashboard/ticketsDay', { initialDate: '2025-03-10', finalDate: '2025-03-09' }],
      ['/api/dashboard/ticketsUsers', { initialDate: '2025-13-01' }],
    ];
    for (const [path, query] of bad) {
      expect(await get(saoPaulo, path, query), `${path} ${JSON.stringify(query)}`).toMatchObject({
        status: 400,
        body: { error: 'ERR_VALIDATION' },
      });
    }
    const huge = await get(saoPaulo, '/api/dashboard/ticketsDay', {
      initialDate: '1990-01-01',
      finalDate: '2025-03-10',
    });
    expect(huge.status).toBe(200);
    expect(huge.body.data).toHaveLength(366);
    expect(huge.body.data.at(-1)).toEqual({ data: '10/03/2025', total: 2 });
    const many = await get(saoPaulo, '/api/dashboard', { days: 9999 });
    expect(many.status).toBe(200);
  });
});

describe('dashboard rollup (deltas appended by triggers, folded into buckets)', () => {
  const deltasOf = async (companyId: number) =>
    Number((await sqlRows('select count(*) as n from dashboard_deltas where company_id = $1', [companyId]))[0].n);
  const fold = () => foldAllDeltas(server.database.db, 37);
  /** a read past the kept answers (the rows here are written in SQL, which announces no change) */
  const read = (t: TTenant, path: string, query: Record<string, string> = {}) => {
    server.ctx.listAnswers.changed(t.companyId);

    return get(t, path, query);
  };
  const day = { date_from: '2025-03-10', date_to: '2025-03-10' };
  const chart = { initialDate: '2025-03-09', finalDate: '2025-03-10' };
  const answers = async (t: TTenant) => ({
    main: (await read(t, '/api/dashboard', day)).body,
    users: (await read(t, '/api/dashboard/ticketsUsers', chart)).body,
    days: (await read(t, '/api/dashboard/ticketsDay', chart)).body,
    hours: (await read(t, '/api/dashboard/ticketsDay', { initialDate: '2025-03-10', finalDate: '2025-03-10' })).body,
  });

  it('answers the same before and after the fold, and follows rows changed or deleted after it', async () => {
    const t = await tenantIn('America/Sao_Paulo');
    await seed(t);
    expect(await deltasOf(t.companyId)).toBeGreaterThan(0);
    const unfolded = await answers(t);
    expect(unfolded.main.counters).toMatchObject({ supportFinished: 3, leads: 1, avgSupportTime: 16823.33 });
    expect(await fold()).toBeGreaterThan(0);
    expect(await deltasOf(t.companyId)).toBe(0);
    expect(await answers(t)).toEqual(unfolded);

    // after the fold: c1 finishes two days later, c3 is deleted, Bruno's rating is deleted, t2's contact becomes a
    // group, and a lead made that day is deleted again
    const [c1] = await sqlRows(
      `select tt.id from ticket_trackings tt where tt.company_id = $1 and tt.finished_at = '2025-03-10T03:10:00Z'`,
      [t.companyId],
    );
    await sqlRows(`update ticket_trackings set finished_at = '2025-03-12T03:10:00Z' where id = $1`, [c1.id]);
    await sqlRows(`delete from ticket_trackings where company_id = $1 and started_at = '2025-02-03T10:00:00Z'`, [
      t.companyId,
    ]);
    await sqlRows('delete from user_ratings where company_id = $1 and rate = 3', [t.companyId]);
    await sqlRows(`update contacts set is_group = true where company_id = $1 and created_at = '2025-03-10T12:00:00Z'`, [
      t.companyId,
    ]);
    const lead = await insertContact(server, t.companyId);
    await sqlRows(`update contacts set created_at = '2025-03-10T13:00:00Z' where id = $1`, [lead.id]);
    expect((await read(t, '/api/dashboard', day)).body.counters.leads).toBe(1);
    await fold();
    await sqlRows('delete from contacts where id = $1', [lead.id]);

    const expected = {
      supportHappening: 1,
      supportPending: 1,
      supportFinished: 1,
      leads: 0,
      avgSupportTime: 40,
      avgWaitTime: 20,
    };
    for (const when of ['unfolded', 'folded']) {
      if (when === 'folded') await fold();
      const res = await read(t, '/api/dashboard', day);
      expect(res.body.counters, when).toEqual(expected);
      const byName = Object.fromEntries(res.body.attendants.map((a: { name: string }) => [a.name, a]));
      expect(byName.Ana, when).toMatchObject({ rating: 1, tickets: 0, avgSupportTime: 0 });
      expect(byName.Bruno, when).toMatchObject({ rating: 0, tickets: 1, avgSupportTime: 40 });
      const users = await read(t, '/api/dashboard/ticketsUsers', {
        initialDate: '2025-03-12',
        finalDate: '2025-03-12',
      });
      expect(users.body.data, when).toEqual(expect.arrayContaining([{ nome: 'Ana', quantidade: 1 }]));
      // cycles are counted where they were created: c1 stays on 03-09 (02:30Z), c3 (02-01) is gone
      const long = await read(t, '/api/dashboard/ticketsDay', { initialDate: '2025-01-31', finalDate: '2025-03-10' });
      expect(long.body.count, when).toBe(3);
    }
    expect(await deltasOf(t.companyId)).toBe(0);
  });

  it('windows not on a quarter-hour read the raw rows at their edges, folded or not', async () => {
    const t = await tenantIn('UTC');
    const ticket = await addTicket(t.companyId, 'closed');
    for (const at of [
      '04-01T10:05',
      '04-01T10:08',
      '04-01T10:50',
      '04-01T10:53',
      '04-03T10:05',
      '04-03T10:51',
      '04-03T10:53',
    ])
      await addCycle(t.companyId, ticket, { createdAt: `2025-${at}:00Z`, finishedAt: `2025-${at}:30Z` });
    const windows = [
      { label: 0, from: new Date('2025-04-01T10:07:00Z'), to: new Date('2025-04-01T10:52:00Z') },
      { label: 1, from: new Date('2025-04-01T10:07:00Z'), to: new Date('2025-04-03T10:52:00Z') },
      { label: 2, from: new Date('2025-04-01T10:07:50Z'), to: new Date('2025-04-01T10:08:20Z') },
    ];
    const read = async () => {
      const figures = await readFigures(server.database.db, t.companyId, windows, { totals: true, attendants: false });

      return [0, 1, 2].map((label) => [figures.get(label)?.get(0)?.created, figures.get(label)?.get(0)?.finished]);
    };
    // 10:08:30 finishes after the third window's end: created in it, not finished
    const expected = [
      [2, 2],
      [5, 5],
      [1, 0],
    ];
    expect(await read()).toEqual(expected);
    await fold();
    expect(await read()).toEqual(expected);
  });

  it('hours and days of zones with daylight saving and 45-minute offsets', async () => {
    const ny = await tenantIn('America/New_York');
    const nyTicket = await addTicket(ny.companyId, 'closed');
    // 2025-11-02 has 25 hours (01:00–02:00 twice), 2025-03-09 has 23 (no 02:00)
    for (const at of ['2025-11-02T05:30:00Z', '2025-11-02T06:30:00Z', '2025-03-09T07:30:00Z'])
      await addCycle(ny.companyId, nyTicket, { createdAt: at, finishedAt: at });
    const hoursOn = async (date: string) =>
      (await read(ny, '/api/dashboard/ticketsDay', { initialDate: date, finalDate: date })).body.data.filter(
        (h: { total: number }) => h.total > 0,
      );
    expect(await hoursOn('2025-11-02')).toEqual([{ horario: 1, total: 2 }]);
    expect(await hoursOn('2025-03-09')).toEqual([{ horario: 3, total: 1 }]);
    const nyDays = await read(ny, '/api/dashboard/ticketsDay', { initialDate: '2025-03-08', finalDate: '2025-11-02' });
    expect(nyDays.body.count).toBe(3);
    expect(nyDays.body.data.filter((d: { total: number }) => d.total > 0)).toEqual([
      { data: '09/03/2025', total: 1 },
      { data: '02/11/2025', total: 2 },
    ]);
    const kathmandu = await tenantIn('Asia/Kathmandu');
    const kTicket = await addTicket(kathmandu.companyId, 'closed');
    for (const at of ['2025-03-09T18:14:00Z', '2025-03-09T18:16:00Z'])
      await addCycle(kathmandu.companyId, kTicket, { createdAt: at, finishedAt: at });
    await fold();
    const days = await read(kathmandu, '/api/dashboard/ticketsDay', chart);
    expect(days.body.data).toEqual([
      { data: '09/03/2025', total: 1 },
      { data: '10/03/2025', total: 1 },
    ]);
    expect(await hoursOn('2025-11-02')).toEqual([{ horario: 1, total: 2 }]);
  });

  it('a computed /dashboard?days=N equals a reference computed from the rows, folded or not', async () => {
    const t = await tenantIn('America/Sao_Paulo');
    const ana = await createUser(server, t, { name: 'Ana' });
    const bia = await createUser(server, t, { name: 'Bia' });
    let ticket = 0;
    const minute = 60_000;
    const ago = (minutes: number) => new Date(Date.now() - minutes * minute).toISOString();
    // cycles every 37 minutes from 3 days and 50 minutes ago to 41 minutes ago (the first two start before the window;
    // no instant within a minute of its edges), accepted by Ana, Bia or nobody, some rated, some not finished
    for (let i = 0; i * 37 < 3 * 1440 + 10; i++) {
      const created = 3 * 1440 + 50 - i * 37;
      const user = [ana.id, bia.id, null][i % 3];
      // six cycles a ticket, its last one not finished (a ticket has one open cycle at most)
      if (i % 6 === 0) ticket = await addTicket(t.companyId, 'closed');
      const cycle = await addCycle(t.companyId, ticket, {
        userId: user,
        createdAt: ago(created),
        startedAt: user ? ago(created - 2 - (i % 5)) : null,
        ratingAt: user && i % 4 === 0 ? ago(created - 20) : null,
        finishedAt: i % 6 === 5 ? null : ago(created - 30 - (i % 7)),
      });
      if (user && i % 4 === 0) await addRating(t.companyId, ticket, cycle, user, 1 + (i % 3), ago(created - 25));
    }
    const [ref] = await sqlRows(
      `with w as (select now() - interval '3 days' as lo, now() as hi),
         fin as (select tt.* from ticket_trackings tt, w where tt.company_id = $1 and tt.finished_at >= w.lo and tt.finished_at < w.hi),
         talk as (select user_id, extract(epoch from coalesce(rating_at, finished_at) - started_at) as s from fin
           where started_at is not null and coalesce(rating_at, finished_at) > started_at)
       select (select count(*) from fin)::int as finished,
         (select avg(s) / 60 from talk) as talk_min,
         (select avg(extract(epoch from started_at - queued_at)) / 60 from ticket_trackings tt, w
           where tt.company_id = $1 and tt.started_at >= w.lo and tt.started_at < w.hi and tt.started_at > tt.queued_at) as wait_min,
         (select json_object_agg(u.id, json_build_object(
             'tickets', (select count(*) from fin where fin.user_id = u.id),
             'talk', (select avg(s) / 60 from talk where talk.user_id = u.id),
             'rating', (select avg(r.rate) from user_ratings r, w where r.company_id = $1 and r.user_id = u.id
               and r.created_at >= w.lo and r.created_at < w.hi)))
           from users u where u.company_id = $1) as users`,
      [t.companyId],
    );
    const round = (n: number | null) => (n === null ? 0 : Math.round(Number(n) * 100) / 100);
    const refUsers = ref.users as Record<string, { tickets: number; talk: number | null; rating: number | null }>;
    const expected = (body: { attendants: { id: number }[] }) => ({
      supportFinished: ref.finished,
      avgSupportTime: round(ref.talk_min as number | null),
      avgWaitTime: round(ref.wait_min as number | null),
      attendants: body.attendants.map((a) => ({
        id: a.id,
        tickets: refUsers[a.id].tickets,
        avgSupportTime: round(refUsers[a.id].talk),
        rating: round(refUsers[a.id].rating),
      })),
    });
    const answer = (body: { counters: Record<string, number>; attendants: Record<string, unknown>[] }) => ({
      supportFinished: body.counters.supportFinished,
      avgSupportTime: body.counters.avgSupportTime,
      avgWaitTime: body.counters.avgWaitTime,
      attendants: body.attendants.map((a) => ({
        id: a.id,
        tickets: a.tickets,
        avgSupportTime: a.avgSupportTime,
        rating: a.rating,
      })),
    });
    expect(ref.finished).toBeGreaterThan(50);
    for (const when of ['unfolded', 'folded']) {
      if (when === 'folded') await fold();
      const { body } = await read(t, '/api/dashboard', { days: '3' });
      expect(answer(body), when).toEqual(expected(body));
    }
  });

  it('the open and pending counts equal a count of the rows, test tickets and other companies left out', async () => {
    const t = await tenantIn('UTC');
    const other = await tenantIn('UTC');
    const statuses = ['open', 'open', 'pending', 'closed', 'pending', 'open', 'closed', 'pending', 'pending'];
    for (const [i, status] of statuses.entries()) {
      const ticket = await addTicket(t.companyId, status);
      // every third one a flow test ticket (the flow editor's test panel), which the dashboard does not count
      if (i % 3 === 2) await sqlRows('update tickets set is_test = true where id = $1', [ticket]);
      await addTicket(other.companyId, status);
    }
    const [reference] = await sqlRows(
      `select count(*) filter (where status = 'open' and not is_test) as open,
         count(*) filter (where status = 'pending' and not is_test) as pending
       from tickets where company_id = $1`,
      [t.companyId],
    );
    const { counters } = (await read(t, '/api/dashboard', { days: '1' })).body;
    expect([counters.supportHappening, counters.supportPending]).toEqual([
      Number(reference.open),
      Number(reference.pending),
    ]);
    expect([counters.supportHappening, counters.supportPending]).toEqual([2, 2]);
  });

  it("a company's deletion goes through (its cascaded rows' deltas have no foreign key) and leaves nothing behind", async () => {
    const t = await tenantIn('UTC');
    await seed(t);
    await fold();
    await addCycle(t.companyId, await addTicket(t.companyId, 'closed'), { createdAt: '2025-03-11T10:00:00Z' });
    await sqlRows('delete from companies where id = $1', [t.companyId]);
    expect(await deltasOf(t.companyId)).toBeGreaterThan(0); // the cascaded cycles' and contacts' negative deltas
    await fold();
    expect(await deltasOf(t.companyId)).toBe(0);
    const [left] = await sqlRows('select count(*) as n from dashboard_rollup where company_id = $1', [t.companyId]);
    expect(Number(left.n)).toBe(0);
  });

  it('folds running at once move every delta exactly once: the rollup equals one rebuilt from the rows', async () => {
    const t = await tenantIn('UTC');
    const user = await createUser(server, t, { name: 'Dora' });
    const ticket = await addTicket(t.companyId, 'closed');
    await sqlRows(
      `insert into ticket_trackings (company_id, ticket_id, user_id, created_at, queued_at, started_at, finished_at)
       select $1::int, $2::int, case when g % 3 = 0 then null else $3::int end, ts, ts, ts + interval '5 minutes', ts + (g % 50) * interval '1 hour'
       from (select g, timestamptz '2025-05-01' + g * interval '37 minutes' as ts from generate_series(1, 400) g) s`,
      [t.companyId, ticket, user.id],
    );
    await sqlRows(`update ticket_trackings set user_id = null where company_id = $1 and id % 7 = 0`, [t.companyId]);
    const rollup = async () =>
      sqlRows(
        `select company_id, span, user_id, bucket, created, waits, wait_us, finished, supports, support_us, ratings,
           rating_sum, leads
         from dashboard_rollup
         where (created, waits, wait_us, finished, supports, support_us, ratings, rating_sum, leads) <> (0, 0, 0, 0, 0, 0, 0, 0, 0)
         order by company_id, span, user_id, bucket`,
      );
    const folded = await Promise.all([fold(), fold(), fold(), fold()]);
    expect(folded.reduce((a, b) => a + b, 0)).toBeGreaterThan(400);
    expect(await deltasOf(t.companyId)).toBe(0);
    const before = await rollup();
    expect(before.some((r) => Number(r.company_id) === t.companyId && Number(r.user_id) === user.id)).toBe(true);
    await sqlRows('select dashboard_rebuild()');
    expect(await rollup()).toEqual(before);
  });
});
