import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser, insertConnection, insertQueue, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { insertContact } from '../../../test/inbox';
import { runMetricsUntilDone } from './metrics-compute';
import { reportSeeds } from './report-seeds';

/**
 * The report exports, read back: every table and chart as CSV and XLSX against the JSON report of the same
 * window, the conversations export of a window of N seeded conversations (more than two pages, equal start times
 * across the page boundary), formula-looking text made inert, the language of the columns, who may export.
 *
 * The week (São Paulo, UTC−3; 2025-03-03 is a Monday):
 * A Mon 10:00 reply 10:10 (Ana) resolved 11:00, two replies, rated 3 with a comment; its contact's name is a formula;
 * B Mon 14:00 reply 14:30 ("@Bruno") resolved Tue 09:00, reopened Tue 10:00 as C (open), rated 1 with a comment;
 * D Wed 09:00, a bot at 09:01, resolved 09:05 by nobody, queue 2, connection 2; E Sun 23:30, open, no queue.
 * The bulk week (2025-04-07…13): N conversations of one ticket, seven to a start time, resolution i seconds.
 */

let server: TTestServer;
let tenant: TTenant;
type TUser = Awaited<ReturnType<typeof createLoggedUser>>;
let ana: TUser;
let bruno: TUser;
let q1: number;
let q2: number;
let c1: number;
let c2: number;
let ticketA: number;
let uuidA: string;

const WEEK = { from: '2025-03-03', to: '2025-03-09' };
const BULK_WEEK = { from: '2025-04-07', to: '2025-04-13' };
const BULK = 4_321;
const ZONE = 'America/Sao_Paulo';
const EVIL_NAME = '=HYPERLINK("http://evil.example","click")';
const COMMENT_A = 'Fast; "really"\nthanks, ana';
const COMMENT_B = '-1 star +cmd|calc';

const { q, addCycle, rate } = reportSeeds(
  () => server,
  () => tenant.companyId,
  () => c1,
);

const newTicket = async (queueId: number | null, userId: number | null, whatsappId: number, name?: string) => {
  const contact = await insertContact(server, tenant.companyId, { name: name ?? unique('Customer') });
  const { rows } = await q(
    `insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status)
     values ($1, $2, $3, $4, $5, 'closed') returning id, uuid::text as uuid`,
    [tenant.companyId, contact.id, whatsappId, queueId, userId],
  );

  return rows[0] as { id: number; uuid: string };
};

beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant('Exports');
  q1 = await insertQueue(server, tenant.companyId);
  q2 = await insertQueue(server, tenant.companyId);
  c1 = await insertConnection(server, tenant.companyId);
  c2 = await insertConnection(server, tenant.companyId);
  ana = await createLoggedUser(server, tenant, { name: 'Agent Ana', queueIds: [q1] });
  bruno = await createLoggedUser(server, tenant, { name: 'Agent Bruno', queueIds: [q1] });
  await q('update users set name = $1 where id = $2', ['@Bruno', bruno.id]);

  const tA = await newTicket(q1, ana.id, c1, EVIL_NAME);
  ticketA = tA.id;
  uuidA = tA.uuid;
  const a = await addCycle({
    ticketId: tA.id,
    created: '2025-03-03T10:00',
    firstReply: ['2025-03-03T10:10', ana.id],
    resolved: '2025-03-03T11:00',
    userId: ana.id,
    queueId: q1,
    messages: [
      ['2025-03-03T10:10', 'agent', ana.id],
      ['2025-03-03T10:30', 'agent', ana.id],
    ],
  });
  await rate(a, tA.id, ana.id, 3, '2025-03-03T11:01', COMMENT_A);
  const tB = await newTicket(q1, bruno.id, c1);
  const b = await addCycle({
    ticketId: tB.id,
    created: '2025-03-03T14:00',
    firstReply: ['2025-03-03T14:30', bruno.id],
    resolved: '2025-03-04T09:00',
    reopened: '2025-03-04T10:00',
    userId: bruno.id,
    queueId: q1,
    messages: [['2025-03-03T14:30', 'agent', bruno.id]],
  });
  await rate(b, tB.id, bruno.id, 1, '2025-03-04T09:02', COMMENT_B);
  await addCycle({ ticketId: tB.id, created: '2025-03-04T10:00', userId: bruno.id, queueId: q1 });
  const tD = await newTicket(q2, null, c2);
  await addCycle({
    ticketId: tD.id,
    created: '2025-03-05T09:00',
    resolved: '2025-03-05T09:05',
    queueId: q2,
    whatsappId: c2,
    messages: [['2025-03-05T09:01', 'bot', null]],
  });
  const tE = await newTicket(null, null, c1);
  await addCycle({ ticketId: tE.id, created: '2025-03-09T23:30' });
  await runMetricsUntilDone(server.ctx);

  // the bulk week: figures written with the rows (nothing due for the runner)
  const bulk = await newTicket(q1, ana.id, c1, 'Bulk Customer');
  await q(
    `insert into ticket_trackings (company_id, ticket_id, whatsapp_id, user_id, queue_id, created_at, queued_at,
                                   finished_at, resolution_s, resolution_bs, replies)
     select $1, $2, $3, $4, $5, s.at, s.at, s.at + make_interval(secs => i), i, i, 1
     from generate_series(1, $6::int) as i,
          lateral (select '2025-04-07T08:00:00-03:00'::timestamptz + make_interval(mins => (i - 1) / 7) as at) s`,
    [tenant.companyId, bulk.id, c1, ana.id, q1, BULK],
  );
});
afterAll(() => server.close());

type TCell = string | number | null;
type TFile = { status: number; headers: Record<string, unknown>; raw: Buffer };

const download = async (query: Record<string, string>, token = tenant.token): Promise<TFile> => {
  const res = await server.app.inject({
    method: 'GET',
    url: '/api/reports/export',
    query,
    headers: { authorization: `Bearer ${token}` },
  });

  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload };
};

/** RFC 4180 with the file's separator: quoted cells may hold separators, quotes and line breaks */
const parseCsv = (text: string, separator: string) => {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === separator) {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  expect(cell).toBe('');
  expect(row).toEqual([]);

  return rows;
};

/** the file as a header row and rows of cells: numbers as numbers, empty cells as null */
const readTable = async (file: TFile, format: 'csv' | 'xlsx', lang: 'pt' | 'en' | 'es' = 'en') => {
  expect(file.status, file.raw.toString('utf8').slice(0, 300)).toBe(200);
  if (format === 'csv') {
    const text = file.raw.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [separator, decimal] = lang === 'en' ? [',', '.'] : [';', ','];
    const [header, ...rows] = parseCsv(text.slice(1), separator);
    const number = decimal === '.' ? /^-?\d+(\.\d+)?(e-?\d+)?$/ : /^-?\d+(,\d+)?(e-?\d+)?$/;
    const cell = (v: string): TCell => (v === '' ? null : number.test(v) ? Number(v.replace(',', '.')) : v);

    return { header: header!, rows: rows.map((r) => r.map(cell)) };
  }
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file.raw as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const all: TCell[][] = [];
  const width = sheet.columnCount;
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells: TCell[] = [];
    for (let i = 1; i <= width; i++) {
      const v = row.getCell(i).value;
      cells.push(
        v === null || v === undefined
          ? null
          : v instanceof Date
            ? v.toISOString().slice(0, 19).replace('T', ' ')
            : (v as string | number),
      );
    }
    all.push(cells);
  });
  const [header, ...rows] = all;

  return { header: header as string[], rows };
};

const asObjects = (table: { header: string[]; rows: TCell[][] }) =>
  table.rows.map((r) => Object.fromEntries(table.header.map((h, i) => [h, r[i] ?? null])));

const report = async (path: string, query: Record<string, string | number> = {}) => {
  const res = await server.request('GET', `/api/reports/${path}`, {
    token: tenant.token,
    query: { ...WEEK, ...query },
  });
  expect(res.status).toBe(200);

  return res.body;
};

type TStats = {
  count: number;
  median: number | null;
  p90: number | null;
  medianBusiness: number | null;
  p90Business: number | null;
};
const stats = (label: string, s: TStats, countName: string) => ({
  [countName]: s.count,
  [`${label}, median (s)`]: s.median,
  [`${label}, p90 (s)`]: s.p90,
  [`${label}, median in business hours (s)`]: s.medianBusiness,
  [`${label}, p90 in business hours (s)`]: s.p90Business,
});
const figures = (r: any) => ({
  'Conversations opened': r.opened,
  'Conversations resolved': r.resolved,
  ...stats('First response', r.firstResponse, 'First responses'),
  ...stats('Resolution', r.resolution, 'Resolutions measured'),
  'Replies per conversation (mean)': r.repliesPerConversation,
  Reopened: r.reopened,
  'Reopen rate (0–1)': r.reopenRate,
  'Resolved by the bot': r.botResolved,
  'Share resolved by the bot (0–1)': r.botResolvedShare,
  Ratings: r.csat.rated,
  'Satisfied ratings (2–3)': r.csat.satisfied,
  'Satisfaction (0–1)': r.csat.score,
  'Ratings of 1': r.csat.distribution[1],
  'Ratings of 2': r.csat.distribution[2],
  'Ratings of 3': r.csat.distribution[3],
  'Conversations with a first-response target': r.sla.firstResponse.decided,
  'First response within target': r.sla.firstResponse.met,
  'Share of first responses within target (0–1)': r.sla.firstResponse.share,
  'Conversations with a resolution target': r.sla.resolution.decided,
  'Resolution within target': r.sla.resolution.met,
  'Share resolved within target (0–1)': r.sla.resolution.share,
});

describe.each(['csv', 'xlsx'] as const)('GET /api/reports/export as %s', (format) => {
  const exported = async (name: string, query: Record<string, string> = {}) =>
    asObjects(await readTable(await download({ ...WEEK, report: name, format, lang: 'en', ...query }), format));

  it('the summary: the JSON summary, one row', async () => {
    const s = await report('summary');
    expect(s.opened).toBe(5);
    expect(await exported('summary')).toEqual([
      {
        From: WEEK.from,
        To: WEEK.to,
        'Time zone': ZONE,
        ...figures(s),
        'Open at the end': s.backlog,
        ...stats('Bot time', s.botTime, 'Conversations with a bot'),
      },
    ]);
    // filtered as the JSON is
    const byQueue = await report('summary', { queueIds: String(q2) });
    expect((await exported('summary', { queueIds: String(q2) }))[0]).toMatchObject(figures(byQueue));
  });

  it('the series: one row a bucket, the backlog carried', async () => {
    for (const groupBy of ['day', 'week']) {
      const { points } = await report('series', { groupBy });
      expect(points.length).toBe(groupBy === 'day' ? 7 : 1);
      expect(await exported('series', { groupBy })).toEqual(
        points.map((p: any) => ({
          'Period (start)': p.bucket,
          'Conversations opened': p.opened,
          'Conversations resolved': p.resolved,
          'Open at the end': p.backlog,
          ...stats('First response', p.firstResponse, 'First responses'),
          ...stats('Resolution', p.resolution, 'Resolutions measured'),
        })),
      );
    }
  });

  it('the heat map: a row a weekday from Monday, a column an hour', async () => {
    const { cells } = await report('heatmap');
    const rows = await exported('heatmap');
    expect(rows.map((r) => r.Weekday)).toEqual([
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]);
    expect(rows.map((r) => Array.from({ length: 24 }, (_, h) => r[`${String(h).padStart(2, '0')}:00`]))).toEqual(cells);
    expect(rows[0]!['10:00']).toBe(1);
  });

  it('agents and queues: a row each, in the JSON order', async () => {
    const agents = (await report('agents')).rows;
    expect(agents.length).toBeGreaterThanOrEqual(3);
    expect(await exported('agents')).toEqual(
      agents.map((r: any) => ({
        'Agent ID': r.userId,
        Agent: r.userId === null ? '(no agent)' : format === 'csv' && r.name.startsWith('@') ? `'${r.name}` : r.name,
        ...figures(r),
      })),
    );
    const queues = (await report('queues')).rows;
    expect(queues.length).toBe(3);
    expect(await exported('queues')).toEqual(
      queues.map((r: any) => ({
        'Queue ID': r.queueId,
        Queue: r.queueId === null ? '(no queue)' : r.name,
        ...figures(r),
      })),
    );
  });

  it("satisfaction: every comment of the window, newest first, at the company's time", async () => {
    const csat = await report('csat');
    expect(csat.count).toBe(2);
    const inert = (text: string) => (format === 'csv' && /^[=+\-@]/.test(text) ? `'${text}` : text);
    expect(await exported('csat')).toEqual([
      {
        [`Rated at (${ZONE})`]: '2025-03-04 09:02:00',
        'Ticket (no.)': csat.comments[0].ticketId,
        Contact: csat.comments[0].contactName,
        Agent: inert('@Bruno'),
        'Rating (1–3)': 1,
        Comment: inert(COMMENT_B),
      },
      {
        [`Rated at (${ZONE})`]: '2025-03-03 11:01:00',
        'Ticket (no.)': ticketA,
        Contact: inert(EVIL_NAME),
        Agent: 'Agent Ana',
        'Rating (1–3)': 3,
        Comment: COMMENT_A,
      },
    ]);
  });

  it('the conversations: one row each with its facts', async () => {
    const rows = await exported('tickets');
    expect(rows.length).toBe((await report('summary')).opened);
    const a = rows.find((r) => r['Ticket (no.)'] === ticketA);
    expect(a).toEqual({
      'Ticket (no.)': ticketA,
      'Ticket UUID': uuidA,
      Contact: format === 'csv' ? `'${EVIL_NAME}` : EVIL_NAME,
      Queue: expect.stringMatching(/^Queue-/),
      Agent: 'Agent Ana',
      Connection: expect.stringMatching(/^Conn-/),
      [`Started (${ZONE})`]: '2025-03-03 10:00:00',
      [`First response at (${ZONE})`]: '2025-03-03 10:10:00',
      [`Resolved at (${ZONE})`]: '2025-03-03 11:00:00',
      'First response (s)': 600,
      'First response in business hours (s)': 600,
      'Resolution (s)': 3600,
      'Resolution in business hours (s)': 3600,
      'Agent replies': 2,
      Reopened: 'no',
      'Bot time (s)': null,
      'Bot time in business hours (s)': null,
      'Rating (1–3)': 3,
      Comment: COMMENT_A,
    });
    expect(rows.map((r) => r[`Started (${ZONE})`])).toEqual([
      '2025-03-03 10:00:00',
      '2025-03-03 14:00:00',
      '2025-03-04 10:00:00',
      '2025-03-05 09:00:00',
      '2025-03-09 23:30:00',
    ]);
    const b = rows[1]!;
    expect(b).toMatchObject({ Agent: format === 'csv' ? "'@Bruno" : '@Bruno', Reopened: 'yes', 'Rating (1–3)': 1 });
    expect(rows[3]).toMatchObject({
      'Bot time (s)': 300,
      Agent: null,
      'Resolution (s)': 300,
      'First response (s)': null,
    });
    expect(rows[4]).toMatchObject({ Queue: null, [`Resolved at (${ZONE})`]: null });
  });

  it(`the conversations of a window of ${BULK}: every one once, in start order, across the pages`, async () => {
    const file = await download({ ...BULK_WEEK, report: 'tickets', format, lang: 'en' });
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="zelo-report-tickets-${BULK_WEEK.from}-${BULK_WEEK.to}.${format}"`,
    );
    const rows = asObjects(await readTable(file, format));
    expect(rows.length).toBe(BULK);
    expect((await report('summary', BULK_WEEK)).opened).toBe(BULK);
    expect(rows.map((r) => r['Resolution (s)'])).toEqual(Array.from({ length: BULK }, (_, i) => i + 1));
    expect(rows[2000]).toMatchObject({
      [`Started (${ZONE})`]: `2025-04-07 ${String(8 + Math.floor(285 / 60)).padStart(2, '0')}:${String(285 % 60).padStart(2, '0')}:00`,
      Contact: 'Bulk Customer',
    });
  });
});

describe('the export file', () => {
  it('is a download: its type, name and a BOM for the CSV', async () => {
    const csv = await download({ ...WEEK, report: 'agents' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      'attachment; filename="zelo-report-agents-2025-03-03-2025-03-09.csv"',
    );
    expect([...csv.raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const xlsx = await download({ ...WEEK, report: 'summary', format: 'xlsx' });
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.raw.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
  });

  it('keeps formula-looking text inert: an apostrophe in the CSV, a text cell in the XLSX', async () => {
    const csv = (await download({ ...WEEK, report: 'tickets', lang: 'en' })).raw.toString('utf8');
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(csv).toContain(",'@Bruno,");
    expect(csv).toContain(`,'-1 star +cmd|calc\r\n`);
    expect(csv).not.toMatch(/(^|[,\n])[=+@-]/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(
      (await download({ ...WEEK, report: 'tickets', format: 'xlsx' })).raw as unknown as ArrayBuffer,
    );
    const cells: ExcelJS.Cell[] = [];
    book.worksheets[0]!.eachRow((row) => row.eachCell((cell) => cells.push(cell)));
    const evil = cells.find((c) => c.value === EVIL_NAME);
    expect(evil?.type).toBe(ExcelJS.ValueType.String);
    expect(cells.filter((c) => c.type === ExcelJS.ValueType.Formula)).toEqual([]);
  });

  it("names the columns in the asked language, else the caller's", async () => {
    const header = async (query: Record<string, string>, lang: 'pt' | 'en' | 'es', token = tenant.token) =>
      (await readTable(await download({ ...WEEK, report: 'summary', ...query }, token), 'csv', lang)).header;
    expect((await header({ lang: 'pt' }, 'pt')).slice(0, 4)).toEqual([
      'De',
      'Até',
      'Fuso horário',
      'Conversas abertas',
    ]);
    expect((await header({ lang: 'es' }, 'es')).slice(0, 4)).toEqual([
      'Desde',
      'Hasta',
      'Zona horaria',
      'Conversaciones abiertas',
    ]);
    expect((await header({ lang: 'en' }, 'en')).slice(0, 4)).toEqual([
      'From',
      'To',
      'Time zone',
      'Conversations opened',
    ]);
    // no lang: the caller's own language (set in the app), else its company's (pt at sign-up)
    expect((await header({}, 'pt'))[0]).toBe('De');
    const admin = await server.request('POST', '/api/users/set-language/es', { token: tenant.token });
    expect(admin.status).toBe(200);
    expect((await header({}, 'es'))[0]).toBe('Desde');
    await server.request('POST', '/api/users/set-language/en', { token: tenant.token });
    expect((await header({}, 'en'))[0]).toBe('From');
    await server.request('POST', '/api/users/set-language/pt', { token: tenant.token });
    // pt and es: the decimal comma
    const pt = await download({ ...WEEK, report: 'summary', lang: 'pt' });
    const [row] = asObjects(await readTable(pt, 'csv', 'pt'));
    const { reopenRate } = await report('summary');
    expect(reopenRate).toBe(1 / 3);
    expect(row!['Taxa de reabertura (0–1)']).toBe(reopenRate);
    expect(pt.raw.toString('utf8')).toContain(';0,3333333333333333;');
  });

  it('refuses agents, bad reports and bad windows', async () => {
    const agent = await download({ ...WEEK, report: 'summary' }, ana.token);
    expect(agent.status).toBe(403);
    expect(JSON.parse(agent.raw.toString('utf8')).error).toBe('ERR_NO_PERMISSION');
    for (const query of [
      { report: 'everything' },
      { report: 'summary', format: 'pdf' },
      { report: 'summary', lang: 'de' },
      { report: 'summary', from: '2024-01-01' },
      { from: WEEK.from },
    ]) {
      const res = await download({ ...WEEK, ...query } as unknown as Record<string, string>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(JSON.parse(res.raw.toString('utf8')).error).toBe('ERR_VALIDATION');
    }
  });

  it("exports the caller's company only, whatever companyId or ids of another company are sent", async () => {
    const other = await server.createTenant('Exports other');
    const theirs = await insertQueue(server, other.companyId);
    const mine = await download({ ...WEEK, report: 'tickets', lang: 'en', companyId: String(other.companyId) });
    expect(asObjects(await readTable(mine, 'csv')).length).toBe(5);
    const filtered = await download({ ...WEEK, report: 'tickets', lang: 'en', queueIds: String(theirs) });
    expect((await readTable(filtered, 'csv')).rows).toEqual([]);
    const theirExport = await download({ ...WEEK, report: 'tickets', lang: 'en' }, other.token);
    expect((await readTable(theirExport, 'csv')).rows).toEqual([]);
  });
});
