import { ERROR_CATALOGUE, generateApiToken, isErrorCode } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addChat,
  addContact,
  addContactList,
  addOption,
  addQueue,
  addQuickMessage,
  addSchedule,
  addFileList,
  addFlow,
  addPhraseCampaign,
  addTag,
  digits,
} from './catalogue-fixtures';
import { createPlan, createUser, type TTenant, unique } from './fixtures';
import { createBodies, DUPLICATES_ALLOWED, NOT_CREATES } from './fuzz-creates';
import { casesFor, operationsOf, type TFuzzCase, type TOpenApiDocument, type TOperation } from './fuzz-cases';
import { startTestServer, type TTestServer } from './harness';

/**
 * Every operation of the OpenAPI document, sent malformed ids, bad query values and bodies of every
 * wrong shape, as a caller who passes its auth (the tenant's admin, the super user on super routes):
 * nothing answers 5xx (but a catalogued 502 from a transport), every 4xx names a catalogue code, NUL and
 * lone surrogates answer 400 ERR_VALIDATION, and afterwards the server is healthy and the fixtures that
 * were only sent refused requests are unchanged. A route added later is fuzzed without anyone listing it.
 */

/** routes the document leaves out on purpose, with the reason (/api/health is documented too) */
const UNDOCUMENTED: Record<string, string> = {
  'GET /metrics': "Prometheus's scrape path, not the API: no input, the operator's token (modules/ops/ops.test.ts)",
};

/** operations that end the caller's session: each case runs on a session of its own */
const ENDS_SESSION = new Set(['DELETE /api/auth/logout']);

let server: TTestServer;
let tenant: TTenant;
let superToken: string;
let doc: TOpenApiDocument;
const fx = {} as {
  userId: number;
  userEmail: string;
  planId: number;
  helpId: number;
  connectionId: number;
  ticketId: number;
  ticketUuid: string;
  messageId: number;
  contactId: number;
  queueId: number;
  optionId: number;
  tagId: number;
  quickMessageId: number;
  scheduleId: number;
  noteId: number;
  chatId: number;
  fileListId: number;
  flowId: number;
  flowCampaignId: number;
  contactListId: number;
  ticketContactId: number;
  /** the sandbox connection's API token (the external messages API's bearer) */
  apiToken: string;
};

const until = async (check: () => boolean, timeoutMs = 10_000) => {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** identical creations sent at once, per create route */
const CONCURRENT = 10;
/** writes sent at once in the mixed pass (the outside fuzz's 250) */
const MIXED = 250;

/** an id no fixture has: what a DELETE is sent, so that its bad queries and bodies delete nothing */
const MISSING_ID = 2_000_000_000;

/** a value that passes each path parameter, so the other parameter's bad values are what is refused */
const validPathValue = (op: TOperation, param: string): string => {
  if (op.method === 'DELETE' && (param === 'id' || param.endsWith('Id'))) return String(MISSING_ID);
  const segment = op.path.split('/')[2];
  const byName: Record<string, () => number | string> = {
    companyId: () => tenant.companyId,
    ticketId: () => fx.ticketId,
    tagId: () => fx.tagId,
    connectionId: () => fx.connectionId,
    uuid: () => fx.ticketUuid,
    email: () => 'nobody@example.com',
    lang: () => 'en',
    key: () => 'userRating',
  };
  const byResource: Record<string, number> = {
    companies: tenant.companyId,
    plans: fx.planId,
    helps: fx.helpId,
    users: fx.userId,
    tickets: fx.ticketId,
    whatsapp: fx.connectionId,
    whatsappsession: fx.connectionId,
    contacts: fx.contactId,
    queue: fx.queueId,
    'queue-options': fx.optionId,
    'quick-messages': fx.quickMessageId,
    schedules: fx.scheduleId,
    tags: fx.tagId,
    'ticket-notes': fx.noteId,
    messages: fx.messageId,
    chats: fx.chatId,
    files: fx.fileListId,
    flowbuilder: fx.flowId,
    flowcampaign: fx.flowCampaignId,
  };
  const value = byName[param]?.() ?? (param === 'id' ? byResource[segment] : undefined);

  // an operation of a resource the suite makes no fixture for still gets every malformed id
  return String(value ?? 1);
};

/** the caller of an operation: its declared auth decides */
const tokenFor = async (op: TOperation) => {
  const decl = server.app.declaredRoutes.find((r) => `${r.method} ${r.url}` === op.key)?.decl;
  if (ENDS_SESSION.has(op.key)) return (await server.login(fx.userEmail, 'User-Pass-1')).token;
  if (decl?.auth === 'super') return superToken;
  if (decl?.auth === 'token') return fx.apiToken;
  if (decl?.auth === 'refresh') return undefined;

  return tenant.token;
};

const send = async (op: TOperation, c: TFuzzCase, token: string | undefined) => {
  const res = await server.app.inject({
    method: op.method as 'GET',
    url: c.url,
    payload: c.payload,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(c.contentType ? { 'content-type': c.contentType } : {}),
    },
  });
  let body: { error?: unknown } | undefined;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }

  return { status: res.statusCode, body, text: res.body.slice(0, 300) };
};

/** what each answer must be; the problem, or undefined */
const judge = (op: TOperation, c: TFuzzCase, res: Awaited<ReturnType<typeof send>>) => {
  const code = res.body?.error;
  if (res.status >= 500) {
    const transport = res.status === 502 && isErrorCode(code) && ERROR_CATALOGUE[code] === 502;
    // a checkout on a server with no payment provider configured (this one): the operator's state, not a crash
    const unconfigured = res.status === 503 && code === 'ERR_BILLING_NOT_CONFIGURED';
    if (!transport && !unconfigured) return `answered ${res.status}`;
  }
  if (res.status >= 400 && !isErrorCode(code)) return `answered ${res.status} without a catalogue code`;
  const decl = server.app.declaredRoutes.find((r) => `${r.method} ${r.url}` === op.key)?.decl;
  // the suite's callers pass every route's auth, so each case reaches validation and the route itself
  if (decl?.auth !== 'refresh' && (code === 'ERR_NOT_AUTHENTICATED' || code === 'ERR_SESSION_REVOKED')) {
    return `answered ${res.status} ${code}: the caller lost its session, the cases after it test nothing`;
  }
  const channelText = decl?.channelText;
  const guarded = c.unstorable === 'params' || c.unstorable === 'query' || (c.unstorable === 'body' && !channelText);
  if (guarded && (res.status !== 400 || code !== 'ERR_VALIDATION')) {
    return `answered ${res.status} ${String(code)} to unstorable text (expected 400 ERR_VALIDATION)`;
  }

  return undefined;
};

/** what the suite's fixtures look like, by the fields a refused request must not change */
const KEPT_FIELDS = [
  'id',
  'name',
  'number',
  'email',
  'color',
  'greetingMessage',
  'shortcode',
  'message',
  'title',
  'option',
  'profile',
  'users',
  'connections',
  'value',
  'description',
  'video',
  'phone',
  'planId',
  'status',
  'dueDate',
];

const snapshot = async () => {
  const read = async (path: string, token: string) => {
    const res = await server.request('GET', path, { token });
    expect(res.status, path).toBe(200);

    return Object.fromEntries(KEPT_FIELDS.filter((f) => f in res.body).map((f) => [f, res.body[f]]));
  };

  return {
    contact: await read(`/api/contacts/${fx.contactId}`, tenant.token),
    queue: await read(`/api/queue/${fx.queueId}`, tenant.token),
    option: await read(`/api/queue-options/${fx.optionId}`, tenant.token),
    tag: await read(`/api/tags/${fx.tagId}`, tenant.token),
    quickMessage: await read(`/api/quick-messages/${fx.quickMessageId}`, tenant.token),
    schedule: await read(`/api/schedules/${fx.scheduleId}`, tenant.token),
    fileList: await read(`/api/files/${fx.fileListId}`, tenant.token),
    flow: (await server.request('GET', `/api/flowbuilder/${fx.flowId}`, { token: tenant.token })).body.flow?.name,
    phrase: (await server.request('GET', `/api/flowcampaign/${fx.flowCampaignId}`, { token: tenant.token })).body
      .details,
    user: await read(`/api/users/${fx.userId}`, tenant.token),
    plan: await read(`/api/plans/${fx.planId}`, superToken),
    help: await read(`/api/helps/${fx.helpId}`, superToken),
    company: await read(`/api/companies/${tenant.companyId}`, superToken),
    // a valid message or read changes its last message and unreads (POSTs are sent valid too): title and members
    chat: await (async () => {
      const res = await server.request('GET', `/api/chats/${fx.chatId}`, { token: tenant.token });
      expect(res.status).toBe(200);
      return { title: res.body.title, members: res.body.users.map((u: { userId: number }) => u.userId) };
    })(),
  };
};

let before: Awaited<ReturnType<typeof snapshot>>;
const covered = new Set<string>();

beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant('Fuzz');
  superToken = (await server.superLogin()).token;
  const user = await createUser(server, tenant);
  fx.userId = user.id;
  fx.userEmail = user.email;
  fx.planId = (await createPlan(server, superToken)).id;
  const help = await server.request('POST', '/api/helps', {
    token: superToken,
    body: { title: unique('Help'), description: 'd', video: 'v' },
  });
  fx.helpId = help.body.id;

  // a sandbox connection with a customer's message, which makes a ticket
  const connection = await server.request('POST', '/api/whatsapp', {
    token: tenant.token,
    body: { name: unique('Sb') },
  });
  expect(connection.status).toBe(201);
  fx.connectionId = connection.body.id;
  await until(() => server.ctx.channels.state(fx.connectionId)?.status === 'qrcode');
  const scan = await server.request('POST', `/api/sandbox/${fx.connectionId}/scan`, { token: tenant.token, body: {} });
  expect(scan.status).toBe(200);
  const from = digits();
  const delivered = await server.request('POST', `/api/sandbox/${fx.connectionId}/inbound`, {
    token: tenant.token,
    body: { from, body: 'hello from the fuzz customer' },
  });
  expect(delivered.status, JSON.stringify(delivered.body)).toBeLessThan(300);
  const { rows } = await server.database.executeSql(
    `select t.id, t.uuid, t.contact_id, m.id as message_id from tickets t join messages m on m.ticket_id = t.id
     where t.company_id = $1 order by m.id limit 1`,
    [tenant.companyId],
  );
  const row = rows[0] as { id: number; uuid: string; contact_id: number; message_id: number };
  fx.ticketId = row.id;
  fx.ticketUuid = row.uuid;
  fx.messageId = row.message_id;
  fx.ticketContactId = row.contact_id;

  fx.contactId = (await addContact(server, tenant)).id;
  fx.queueId = (await addQueue(server, tenant)).id;
  fx.optionId = (await addOption(server, tenant, { queueId: fx.queueId })).id;
  fx.tagId = (await addTag(server, tenant)).id;
  fx.quickMessageId = (await addQuickMessage(server, tenant.token)).id;
  fx.scheduleId = (await addSchedule(server, tenant, { contactId: fx.contactId })).id;
  const note = await server.request('POST', '/api/ticket-notes', {
    token: tenant.token,
    body: { note: 'a note', ticketId: fx.ticketId, contactId: row.contact_id },
  });
  expect(note.status, JSON.stringify(note.body)).toBe(201);
  fx.noteId = note.body.id;
  fx.chatId = (await addChat(server, tenant)).chat.id;
  fx.fileListId = (await addFileList(server, tenant)).id;
  fx.flowId = (await addFlow(server, tenant)).id;
  fx.flowCampaignId = (await addPhraseCampaign(server, tenant)).id;
  fx.contactListId = (await addContactList(server, tenant)).id;
  // a token as strong as a generated one, given through the editor's route (stored sealed, found by its hash)
  fx.apiToken = generateApiToken();
  const withToken = await server.request('PUT', `/api/whatsapp/${fx.connectionId}`, {
    token: tenant.token,
    body: { token: fx.apiToken },
  });
  expect(withToken.status, JSON.stringify(withToken.body)).toBe(200);

  const docs = await server.request('GET', '/api/docs/json');
  expect(docs.status).toBe(200);
  doc = docs.body;
  before = await snapshot();
});
afterAll(() => server.close());

describe('OpenAPI fuzz', () => {
  it('the document lists every declared route', () => {
    const documented = new Set(operationsOf(doc).map((op) => op.key));
    const declared = server.app.declaredRoutes.map((r) => `${r.method} ${r.url}`);
    const missing = declared.filter((key) => !documented.has(key) && !UNDOCUMENTED[key]);
    expect(missing).toEqual([]);
    expect(documented.size).toBe(declared.length - Object.keys(UNDOCUMENTED).length);
  });

  it('no operation answers 5xx or an uncatalogued error to bad input', { timeout: 600_000 }, async () => {
    const problems: string[] = [];
    let requests = 0;
    for (const op of operationsOf(doc)) {
      // a valid PUT or DELETE on a fixture would change what the suite checks afterwards; creations are fine
      const cases = casesFor(op, validPathValue, { sendValid: op.method === 'POST' });
      for (const c of cases) {
        const res = await send(op, c, await tokenFor(op));
        requests += 1;
        const problem = judge(op, c, res);
        if (problem) problems.push(`${op.key} [${c.label}] ${problem}: ${res.text}`);
      }
      covered.add(op.key);
    }
    expect(problems).toEqual([]);
    expect(covered.size).toBe(operationsOf(doc).length);
    expect(requests).toBeGreaterThan(covered.size * 10);
  });

  it(
    'N identical creates at once make one row (or the repeats the route allows), the rest 4xx, never 5xx',
    {
      timeout: 300_000,
    },
    async () => {
      const bodies = createBodies(fx);
      const creates = operationsOf(doc).filter(
        (op) =>
          op.method === 'POST' &&
          op.pathParams.length === 0 &&
          op.contentTypes.includes('application/json') &&
          !NOT_CREATES[op.key],
      );
      const problems: string[] = [];
      for (const op of creates) {
        const build = bodies[op.key];
        if (!build) {
          problems.push(`${op.key}: no valid body in test/fuzz-creates.ts (or list it in NOT_CREATES)`);
          continue;
        }
        const c: TFuzzCase = {
          label: 'concurrent',
          url: op.path,
          payload: JSON.stringify(build()),
          contentType: 'application/json',
        };
        const token = await tokenFor(op);
        const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => send(op, c, token)));
        const made = answers.filter((r) => r.status < 300);
        for (const r of answers) {
          if (r.status >= 500) problems.push(`${op.key}: answered ${r.status}: ${r.text}`);
          else if (r.status >= 400 && !isErrorCode(r.body?.error)) problems.push(`${op.key}: ${r.status} uncatalogued`);
        }
        if (made.length === 0)
          problems.push(`${op.key}: no creation succeeded: ${answers[0].status} ${answers[0].text}`);
        const rows = new Set(made.map((r, i) => (r.body as { id?: unknown } | undefined)?.id ?? `answer ${i}`));
        if (rows.size > 1 && !DUPLICATES_ALLOWED[op.key]) problems.push(`${op.key}: ${rows.size} rows of one body`);
        // where repeats are allowed, every one of them succeeds
        if (DUPLICATES_ALLOWED[op.key] && made.length !== CONCURRENT) {
          problems.push(
            `${op.key}: ${made.length} of ${CONCURRENT} repeats succeeded: ${answers.find((r) => r.status >= 300)?.text}`,
          );
        }
      }
      expect(problems).toEqual([]);
      expect(creates.length).toBeGreaterThan(20);
    },
  );

  it(
    `${MIXED} mixed writes at once (the cases above and valid creations) answer no 5xx`,
    { timeout: 300_000 },
    async () => {
      const bodies = createBodies(fx);
      const writes = operationsOf(doc).filter((op) => op.method !== 'GET' && !ENDS_SESSION.has(op.key));
      // each operation's cases in turn (round-robin, so every route is in the pass) and each create's valid body
      const queues = writes.map((op) =>
        casesFor(op, validPathValue, { sendValid: op.method === 'POST' })
          .filter((c) => !c.label.includes('MB'))
          .map((c) => ({ op, c })),
      );
      const picked: { op: TOperation; c: TFuzzCase }[] = [];
      for (const op of writes) {
        const build = bodies[op.key];
        if (!build) continue;
        const payload = JSON.stringify(build());
        for (let i = 0; i < 3; i++)
          picked.push({ op, c: { label: 'valid', url: op.path, payload, contentType: 'application/json' } });
      }
      for (let round = 0; picked.length < MIXED; round++) {
        const before = picked.length;
        for (const q of queues) if (q[round] && picked.length < MIXED) picked.push(q[round]);
        if (picked.length === before) break;
      }
      const tokens = new Map<string, string | undefined>();
      for (const { op } of picked) if (!tokens.has(op.key)) tokens.set(op.key, await tokenFor(op));
      const answers = await Promise.all(picked.map(({ op, c }) => send(op, c, tokens.get(op.key))));
      const problems = answers.flatMap((res, i) => {
        const { op, c } = picked[i];
        const problem =
          c.label === 'valid' ? (res.status >= 500 ? `answered ${res.status}` : undefined) : judge(op, c, res);
        return problem ? [`${op.key} [${c.label}] ${problem}: ${res.text}`] : [];
      });
      expect(problems).toEqual([]);
      expect(picked.length).toBe(MIXED);
      expect(await server.request('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    },
  );

  it('the server is healthy afterwards and refused requests changed nothing', async () => {
    expect(covered.size).toBe(operationsOf(doc).length);
    expect(await server.request('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    for (const token of [tenant.token, superToken]) {
      expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(200);
    }
    const list = await server.request('GET', '/api/tickets', { token: tenant.token, query: { status: 'pending' } });
    expect(list.status).toBe(200);
    expect(await snapshot()).toEqual(before);
  });
});
