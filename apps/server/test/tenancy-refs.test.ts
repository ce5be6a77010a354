import { ERROR_CATALOGUE, type TErrorCode } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, addContactList, addFileList, addFlow, addInvoice, addQueue, addTag } from './catalogue-fixtures';
import { createUser, insertConnection, type TTenant, unique } from './fixtures';
import { operationsOf, plausible, type TOpenApiDocument, type TOperation } from './fuzz-cases';
import { startTestServer, type TTestServer } from './harness';
import { MISSING_ID } from './tenancy';

/**
 * Company A writes company B's ids into every id field of every write route. The fields are found in the OpenAPI
 * document (an id-like name, or a list of `{id}`), so a field added later is tried without anyone listing it, and
 * one this file cannot classify fails the suite. For each route and field, A's request with B's id answers exactly
 * what it answers with an id no table holds (no existence oracle), and for a tenant reference that answer is the
 * table's not-found code naming the field. Afterwards no row of any company references another company's row (over
 * every foreign key of the schema) and every row of B is as it was.
 */

type TKind =
  | 'queue'
  | 'user'
  | 'connection'
  | 'contact'
  | 'ticket'
  | 'tag'
  | 'prompt'
  | 'integration'
  | 'flow'
  | 'contactList'
  | 'fileList'
  | 'invoice';

/** a tenant reference: which of the company's rows it names, and the code a foreign or missing one answers */
const REFS: Record<string, { kind: TKind; code: TErrorCode }> = {
  queueId: { kind: 'queue', code: 'ERR_NO_QUEUE_FOUND' },
  queueIds: { kind: 'queue', code: 'ERR_NO_QUEUE_FOUND' },
  transferQueueId: { kind: 'queue', code: 'ERR_NO_QUEUE_FOUND' },
  userId: { kind: 'user', code: 'ERR_NO_USER_FOUND' },
  users: { kind: 'user', code: 'ERR_NO_USER_FOUND' },
  whatsappId: { kind: 'connection', code: 'ERR_NO_WAPP_FOUND' },
  contactId: { kind: 'contact', code: 'ERR_NO_CONTACT_FOUND' },
  ticketId: { kind: 'ticket', code: 'ERR_NO_TICKET_FOUND' },
  tagId: { kind: 'tag', code: 'ERR_NO_TAG_FOUND' },
  tagListId: { kind: 'tag', code: 'ERR_NO_TAG_FOUND' },
  tags: { kind: 'tag', code: 'ERR_NO_TAG_FOUND' },
  promptId: { kind: 'prompt', code: 'ERR_NO_PROMPT_FOUND' },
  integrationId: { kind: 'integration', code: 'ERR_NO_INTEGRATION_FOUND' },
  flowId: { kind: 'flow', code: 'ERR_NO_FLOW_FOUND' },
  flowIdWelcome: { kind: 'flow', code: 'ERR_NO_FLOW_FOUND' },
  flowIdNotPhrase: { kind: 'flow', code: 'ERR_NO_FLOW_FOUND' },
  contactListId: { kind: 'contactList', code: 'ERR_NO_CONTACT_LIST_FOUND' },
  fileListId: { kind: 'fileList', code: 'ERR_NO_FILE_LIST_FOUND' },
  invoiceId: { kind: 'invoice', code: 'ERR_NO_INVOICE_FOUND' },
};

/**
 * id-like fields that are not a reference to another table of the company, with the reason. They are still sent
 * B's ids (the numeric ones), must answer as a missing id does, and the row check below still holds.
 */
const NOT_REFS: Record<string, string> = {
  id: "PUT /flowcampaign's own subject (the ancestor puts the path id in the body): looked up in the company, 404",
  parentId: "a queue option's parent: an option of the same queue, checked by the service within that queue",
  extraInfo: "a contact's own custom fields, matched within that contact",
  options: "a file list's own rows, matched within that list",
  nodes: "the flow document's own node ids (strings); a node's queue is read in the company when the flow runs",
  connections: "the flow document's edges between its own nodes (strings)",
  externalId: "the sandbox channel's message id (a string the simulated phone chose)",
  externalIds: "the sandbox channel's message ids (strings)",
  quotedExternalId: "the sandbox channel's message id (a string)",
  planId: 'plans are global: every company picks from the same ones',
};

/** what the schema's plausible body lacks to pass validation, per route (fresh names: a repeat may be refused) */
const VALID: Record<string, () => Record<string, unknown>> = {
  'POST /api/users': () => ({ name: 'Refs user', email: `${unique('refs')}@example.com`, password: 'User-Pass-1' }),
  'PUT /api/users/:id': () => ({ name: 'Refs user' }),
  'POST /api/queue': () => ({ name: unique('Refs queue'), color: '#123456' }),
  'PUT /api/queue/:id': () => ({ name: unique('Refs queue'), color: '#123456' }),
  'POST /api/schedules': () => ({
    body: 'A message for the refs suite',
    sendAt: new Date(Date.now() + 86_400_000).toISOString(),
  }),
  'PUT /api/schedules/:id': () => ({
    body: 'A message for the refs suite',
    sendAt: new Date(Date.now() + 86_400_000).toISOString(),
  }),
  'POST /api/files': () => ({ name: unique('Refs files'), message: 'Refs' }),
  'PUT /api/files/:id': () => ({ name: unique('Refs files'), message: 'Refs' }),
  'POST /api/queueIntegration': () => ({ type: 'webhook', name: unique('Refs'), urlN8N: 'https://refs.example/x' }),
  'PUT /api/queueIntegration/:id': () => ({ type: 'webhook', name: unique('Refs'), urlN8N: 'https://refs.example/x' }),
  'PUT /api/flowbuilder': () => ({ name: unique('Refs flow') }),
  'POST /api/contact-list-items': () => ({ name: 'Refs item', number: '5511912345678' }),
  'PUT /api/contact-list-items/:id': () => ({ name: 'Refs item', number: '5511912345678' }),
};

type TSchema = {
  type?: string | string[];
  properties?: Record<string, TSchema>;
  items?: TSchema;
  anyOf?: TSchema[];
  oneOf?: TSchema[];
  required?: string[];
};

const branches = (s: TSchema | undefined): TSchema[] =>
  s ? [s, ...(s.anyOf ?? []).flatMap(branches), ...(s.oneOf ?? []).flatMap(branches)] : [];
const isArray = (s: TSchema) => branches(s).some((b) => b.type === 'array' || b.items);
const itemsHaveId = (s: TSchema) => branches(s).some((b) => branches(b.items).some((i) => i.properties?.id));
const idLike = (name: string, s: TSchema) => /^id$|Ids?$/.test(name) || itemsHaveId(s);

/** a field's value naming `id`, in the shape its schema takes */
const shaped = (s: TSchema, id: number) => (itemsHaveId(s) ? [{ id }] : isArray(s) ? [id] : id);

let server: TTestServer;
let doc: TOpenApiDocument;
let a: TTenant;
let b: TTenant;
const own = {} as Record<'a' | 'b', Record<TKind, number>>;

const resourcesOf = async (t: TTenant): Promise<Record<TKind, number>> => {
  const queue = await addQueue(server, t);
  const contact = await addContact(server, t);
  const { rows } = await server.database.executeSql(
    "insert into tickets (company_id, contact_id, status) values ($1, $2, 'pending') returning id",
    [t.companyId, contact.id],
  );
  const prompt = await server.request('POST', '/api/prompt', {
    token: t.token,
    body: {
      name: unique('Prompt'),
      prompt: 'Answer the customers of this company politely, briefly and in their own language.',
      model: 'gpt-4o-mini',
      maxTokens: 100,
      temperature: 1,
      apiKey: 'sk-refs-key-0000000000',
      queueId: queue.id,
      maxMessages: 10,
    },
  });
  expect(prompt.status, JSON.stringify(prompt.body)).toBe(200);
  const integration = await server.request('POST', '/api/queueIntegration', {
    token: t.token,
    body: { type: 'webhook', name: unique('Hook').slice(0, 40), urlN8N: 'https://refs.example/hook' },
  });
  expect(integration.status, JSON.stringify(integration.body)).toBe(201);

  return {
    queue: queue.id,
    user: (await createUser(server, t)).id,
    connection: await insertConnection(server, t.companyId),
    contact: contact.id,
    ticket: (rows[0] as { id: number }).id,
    tag: (await addTag(server, t)).id,
    prompt: prompt.body.id,
    integration: integration.body.id,
    flow: (await addFlow(server, t)).id,
    contactList: (await addContactList(server, t)).id,
    fileList: (await addFileList(server, t)).id,
    invoice: await addInvoice(server, t, unique('Refs invoice')),
  };
};

/** every foreign key from one tenant row to another (a join table's two sides included) whose companies differ */
const crossCompanyReferences = async () => {
  const q = async <T>(text: string, values: unknown[] = []) =>
    (await server.database.executeSql(text, values)).rows as T[];
  const tenantTables = new Set(
    (
      await q<{ table_name: string }>(
        "select table_name from information_schema.columns where table_schema = 'public' and column_name = 'company_id'",
      )
    ).map((r) => r.table_name),
  );
  const keys = await q<{ t: string; col: string; ref: string }>(
    `select kcu.table_name as t, kcu.column_name as col, ccu.table_name as ref
       from information_schema.table_constraints tc
       join information_schema.key_column_usage kcu
         on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
       join information_schema.constraint_column_usage ccu
         on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public' and ccu.column_name = 'id'`,
  );
  const byTable = new Map<string, { col: string; ref: string }[]>();
  for (const k of keys) {
    if (!tenantTables.has(k.ref) || k.col === 'company_id') continue;
    byTable.set(k.t, [...(byTable.get(k.t) ?? []), { col: k.col, ref: k.ref }]);
  }
  const found: string[] = [];
  for (const [table, refs] of byTable) {
    const joins = refs.map((r, i) => `left join "${r.ref}" r${i} on r${i}.id = t."${r.col}"`).join(' ');
    const anchor = tenantTables.has(table) ? 't.company_id' : 'r0.company_id';
    const differs = refs.map((_, i) => `r${i}.company_id <> ${anchor}`).join(' or ');
    const [row] = await q<{ n: number }>(`select count(*)::int as n from "${table}" t ${joins} where ${differs}`);
    if (row.n > 0) found.push(`${table}: ${row.n} row(s) reference another company's row`);
  }
  expect(byTable.size).toBeGreaterThan(10);

  return found;
};

/** every row of company B, as text: its tenant tables and the join tables hanging off its rows */
const snapshotOf = async (companyId: number) => {
  const q = async <T>(text: string, values: unknown[] = []) =>
    (await server.database.executeSql(text, values)).rows as T[];
  const tables = (
    await q<{ table_name: string }>(
      "select table_name from information_schema.columns where table_schema = 'public' and column_name = 'company_id' order by table_name",
    )
  ).map((r) => r.table_name);
  const out: Record<string, string> = {};
  for (const table of tables) {
    const [row] = await q<{ h: string }>(
      `select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${table}" x where company_id = $1`,
      [companyId],
    );
    out[table] = row.h;
  }

  return out;
};

const PATH_KINDS: Record<string, TKind> = {
  tickets: 'ticket',
  queue: 'queue',
  users: 'user',
  whatsapp: 'connection',
  contacts: 'contact',
  tags: 'tag',
  prompt: 'prompt',
  queueIntegration: 'integration',
  flowbuilder: 'flow',
  'contact-lists': 'contactList',
  files: 'fileList',
};

const sendAs = async (t: TTenant, op: TOperation, body: unknown) => {
  const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === 'uuid') return '00000000-0000-4000-8000-000000000000';
    if (name === 'lang') return 'en';
    if (name === 'key') return 'userRating';
    if (name === 'email') return 'nobody@example.com';
    // A's own row of the path's resource, so that the request gets as far as it can
    const segment = op.path.split('/')[2];
    const kind = PATH_KINDS[segment];
    return String(kind ? own.a[kind] : own.a.ticket);
  });
  const res = await server.request(op.method, url, { token: t.token, body });

  return { status: res.status, body: res.body };
};

beforeAll(async () => {
  server = await startTestServer();
  a = await server.createTenant('Alpha');
  b = await server.createTenant('Beta');
  own.a = await resourcesOf(a);
  own.b = await resourcesOf(b);
  doc = (await server.request('GET', '/api/docs/json')).body;
});
afterAll(() => server.close());

describe("company A writes company B's ids into every id field of every write route", () => {
  it(
    "every id field answers as a missing id, a reference names its table's not-found code, nothing of B's is referenced or changed",
    {
      timeout: 300_000,
    },
    async () => {
      const before = await snapshotOf(b.companyId);
      const problems: string[] = [];
      let tried = 0;
      const companyRoutes = new Set(
        server.app.declaredRoutes
          .filter((r) => ['user', 'admin'].includes(r.decl?.auth ?? ''))
          .map((r) => `${r.method} ${r.url}`),
      );
      for (const op of operationsOf(doc)) {
        if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method) || !companyRoutes.has(op.key)) continue;
        const schema = op.bodySchema as TSchema | undefined;
        const props = Object.entries(schema?.properties ?? {});
        const fields = props.filter(([name, s]) => idLike(name, s));
        if (fields.length === 0) continue;
        // the body's other references are A's own (or left out when optional): only the field tried is foreign
        const base = plausible(schema as never) as Record<string, unknown>;
        for (const [name, s] of fields) {
          if (!(name in base)) continue;
          const ref = REFS[name];
          if (ref) base[name] = shaped(s, own.a[ref.kind]);
          else if (!NOT_REFS[name]) problems.push(`${op.key}: ${name} is id-like but neither a reference nor listed`);
        }
        for (const [name, s] of fields) {
          const ref = REFS[name];
          if (!ref && !NOT_REFS[name]) {
            problems.push(`${op.key}: ${name} is id-like but neither a reference nor listed`);
            continue;
          }
          const others = Object.fromEntries(
            Object.entries(base).filter(([k]) => k === name || !(k in REFS) || schema?.required?.includes(k)),
          );
          const foreignId = ref ? own.b[ref.kind] : own.b.ticket;
          const fresh = () => ({ ...others, ...VALID[op.key]?.() });
          const missing = await sendAs(a, op, { ...fresh(), [name]: shaped(s, MISSING_ID) });
          const foreign = await sendAs(a, op, { ...fresh(), [name]: shaped(s, foreignId) });
          tried += 1;
          const label = `${op.key} ${name}`;
          // a field that is not a reference may be taken (a new row each time): the answers match in status
          const same = ref
            ? JSON.stringify(foreign.body) === JSON.stringify(missing.body)
            : foreign.body?.error === missing.body?.error;
          if (foreign.status !== missing.status || !same) {
            problems.push(
              `${label}: B's id answered ${foreign.status} ${JSON.stringify(foreign.body)}, a missing one ${missing.status} ${JSON.stringify(missing.body)}`,
            );
          }
          if (ref && (foreign.status !== ERROR_CATALOGUE[ref.code] || foreign.body?.error !== ref.code)) {
            problems.push(`${label}: expected ${ref.code}, got ${foreign.status} ${JSON.stringify(foreign.body)}`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(tried).toBeGreaterThan(40);
      expect(await crossCompanyReferences()).toEqual([]);
      expect(await snapshotOf(b.companyId)).toEqual(before);
    },
  );
});
