import { expect } from 'vitest';
import { createUser, insertConnection, type TTenant, unique } from './fixtures';
import type { TTestServer } from './harness';

/** Fixtures of the catalogue modules: contacts, queues, tags, quick messages, tickets to hang notes on. */

export const digits = () => `55${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`;

export const addContact = async (server: TTestServer, tenant: TTenant, fields: Record<string, unknown> = {}) => {
  const res = await server.request('POST', '/api/contacts', {
    token: tenant.token,
    body: { name: unique('Contact'), number: digits(), ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; name: string; number: string; email: string; extraInfo: { id: number }[] };
};

let colorSeq = 0;
export const nextColor = () => {
  colorSeq += 1;
  return `#${(colorSeq * 7919 + Math.floor(Math.random() * 1000)).toString(16).padStart(6, '0').slice(-6)}`;
};

export const addQueue = async (server: TTestServer, tenant: TTenant, fields: Record<string, unknown> = {}) => {
  const res = await server.request('POST', '/api/queue', {
    token: tenant.token,
    body: { name: unique('Queue'), color: nextColor(), ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; name: string; color: string };
};

export const addOption = async (server: TTestServer, tenant: TTenant, fields: Record<string, unknown>) => {
  const res = await server.request('POST', '/api/queue-options', {
    token: tenant.token,
    body: { title: unique('Option'), ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; option: string; parentId: number | null; queueId: number };
};

export const addTag = async (server: TTestServer, tenant: TTenant, fields: Record<string, unknown> = {}) => {
  const res = await server.request('POST', '/api/tags', {
    token: tenant.token,
    body: { name: unique('Tag'), ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; name: string; kanban: number };
};

export const addQuickMessage = async (server: TTestServer, token: string, fields: Record<string, unknown> = {}) => {
  const res = await server.request('POST', '/api/quick-messages', {
    token,
    body: { shortcode: unique('qm'), message: 'Hello there', ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; shortcode: string; geral: boolean; userId: number };
};

/** a small PDF, as type detection reads one */
export const SAMPLE_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/**
 * POST /api/quick-messages/:id/media-upload as the ancestor's dialog sends it (multipart `typeArch`, `file`),
 * over real HTTP; answers the status and the parsed body.
 */
export const uploadQuickMedia = async (
  server: TTestServer,
  token: string,
  id: number,
  file: { name: string; data: Buffer; type?: string } = { name: 'price list.pdf', data: SAMPLE_PDF },
) => {
  const form = new FormData();
  form.append('typeArch', 'quickMessage');
  form.append('file', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/pdf' }), file.name);
  const res = await fetch(`${server.url}/api/quick-messages/${id}/media-upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();

  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

/** a ticket written straight to the database (the tickets API is another module's) */
export const insertTicket = async (
  server: TTestServer,
  companyId: number,
  contactId: number,
  fields: { status?: string; queueId?: number | null; userId?: number | null } = {},
) => {
  const { rows } = await server.database.executeSql(
    'insert into tickets (company_id, contact_id, status, queue_id, user_id) values ($1, $2, $3, $4, $5) returning id',
    [companyId, contactId, fields.status ?? 'open', fields.queueId ?? null, fields.userId ?? null],
  );

  return (rows[0] as { id: number }).id;
};

/** a contact with a ticket, both of the tenant's company */
export const addTicket = async (
  server: TTestServer,
  tenant: TTenant,
  fields: Parameters<typeof insertTicket>[3] = {},
) => {
  const contact = await addContact(server, tenant);
  const ticketId = await insertTicket(server, tenant.companyId, contact.id, fields);

  return { ticketId, contactId: contact.id, contact };
};

/** a delivery in the tenant's dead-letter list (as inbound/deliveries leaves one after its last attempt) */
export const addFailedDelivery = async (server: TTestServer, tenant: TTenant, body = unique('Failed delivery')) => {
  const connectionId = await insertConnection(server, tenant.companyId);
  const { rows } = await server.database.executeSql(
    `insert into inbound_deliveries (company_id, whatsapp_id, transport, status, payload, attempts, last_error)
     values ($1, $2, 'sandbox', 'failed', $3, 5, 'test failure') returning id`,
    [tenant.companyId, connectionId, JSON.stringify({ connectionId, from: digits(), body, type: 'text' })],
  );

  return Number((rows[0] as { id: number | string }).id);
};

/** an internal chat of the tenant's admin with a new user of its company; answers the chat and that user */
export const addChat = async (server: TTestServer, tenant: TTenant, title = unique('Chat')) => {
  const member = await createUser(server, tenant, { name: 'Chat Member' });
  const res = await server.request('POST', '/api/chats', {
    token: tenant.token,
    body: { title, users: [{ id: member.id, name: member.name }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return { chat: res.body as { id: number; uuid: string; title: string }, member };
};

/** an announcement the super user wrote (global: every company reads the active ones) */
export const addAnnouncement = async (
  server: TTestServer,
  superToken: string,
  fields: Record<string, unknown> = {},
) => {
  const res = await server.request('POST', '/api/announcements', {
    token: superToken,
    body: { title: unique('Announcement'), text: 'For every company', ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; title: string; status: boolean };
};

/** a 1×1 png */
export const SAMPLE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** a scheduled message for a new contact of the tenant, an hour ahead (the ancestor's dialog's default) */
export const addSchedule = async (server: TTestServer, tenant: TTenant, fields: Record<string, unknown> = {}) => {
  const contactId = fields.contactId ?? (await addContact(server, tenant)).id;
  const res = await server.request('POST', '/api/schedules', {
    token: tenant.token,
    body: { body: unique('Scheduled'), sendAt: new Date(Date.now() + 3_600_000).toISOString(), ...fields, contactId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body as { id: number; body: string; contactId: number; status: string };
};

/** POST /api/schedules/:id/media-upload as the ancestor's dialog sends it (multipart `file`) over real HTTP */
export const uploadScheduleMedia = async (server: TTestServer, token: string, id: number, data = SAMPLE_PNG) => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'photo.png');
  const res = await fetch(`${server.url}/api/schedules/${id}/media-upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();

  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

/** a file list made by the tenant's admin, with rows of these names (no files yet) */
export const addFileList = async (
  server: TTestServer,
  tenant: TTenant,
  fields: { name?: string; message?: string; options?: { name: string }[] } = {},
) => {
  const res = await server.request('POST', '/api/files', {
    token: tenant.token,
    body: { name: unique('Files'), message: 'Our catalogue', options: [{ name: 'Catalogue' }], ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);

  return res.body as {
    id: number;
    name: string;
    message: string;
    options: { id: number; name: string; path: string; mediaType: string; url: string | null }[];
  };
};

/**
 * POST /api/files/uploadList/:id as the ancestor's FileModal sends it: `fileId`, `typeArch`, then for each file
 * `files`, `mediaType` (the browser's guess), `name` and `id`; over real HTTP.
 */
export const uploadListFiles = async (
  server: TTestServer,
  token: string,
  id: number,
  files: { optionId: number | string; name: string; data: Buffer; fileName?: string; type?: string }[],
) => {
  const form = new FormData();
  form.append('fileId', String(id));
  form.append('typeArch', 'fileList');
  for (const file of files) {
    const type = file.type ?? 'application/pdf';
    form.append('files', new Blob([new Uint8Array(file.data)], { type }), file.fileName ?? `${file.name}.pdf`);
    form.append('mediaType', type);
    form.append('name', file.name);
    form.append('id', String(file.optionId));
  }
  const res = await fetch(`${server.url}/api/files/uploadList/${id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();

  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

export const addContactList = async (server: TTestServer, tenant: TTenant, fields: Record<string, unknown> = {}) => {
  const res = await server.request('POST', '/api/contact-lists', {
    token: tenant.token,
    body: { name: unique('List'), ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; name: string; contactsCount: number };
};

export const addContactListItem = async (
  server: TTestServer,
  tenant: TTenant,
  contactListId: number,
  fields: Record<string, unknown> = {},
) => {
  const res = await server.request('POST', '/api/contact-list-items', {
    token: tenant.token,
    body: { name: unique('Item'), number: digits(), contactListId, ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);

  return res.body as { id: number; name: string; number: string; contactListId: number };
};

let invoiceSeq = 0;

/** an open invoice of the tenant's company, as the invoice job writes it (a due date of its own each time) */
export const addInvoice = async (server: TTestServer, tenant: TTenant, detail = 'Beta Invoice Marker') => {
  invoiceSeq += 1;
  const { rows } = await server.database.executeSql(
    `insert into invoices (company_id, detail, value, due_date)
     values ($1, $2, 30, to_char(date '2031-01-01' + $3::int, 'YYYY-MM-DD')) returning id`,
    [tenant.companyId, detail, invoiceSeq],
  );

  return (rows[0] as { id: number }).id;
};

/** a flow with a saved document (start → question → message) */
export const addFlow = async (server: TTestServer, tenant: TTenant, name = unique('Flow').slice(0, 40)) => {
  const res = await server.request('POST', '/api/flowbuilder', { token: tenant.token, body: { name } });
  if (res.status !== 201) throw new Error(`flow: ${res.status} ${JSON.stringify(res.body)}`);
  const at = { x: 0, y: 0 };
  const saved = await server.request('POST', '/api/flowbuilder/flow', {
    token: tenant.token,
    body: {
      idFlow: res.body.id,
      nodes: [
        { id: '1', type: 'start', position: at, data: { label: 'Inicio do fluxo' } },
        {
          id: 'q',
          type: 'question',
          position: at,
          data: { typebotIntegration: { message: `${name} question`, answerKey: 'nome' } },
        },
        { id: 'm', type: 'message', position: at, data: { label: `${name} marker {{nome}}` } },
      ],
      connections: [
        { source: '1', target: 'q' },
        { source: 'q', target: 'm' },
      ],
    },
  });
  if (saved.status !== 200) throw new Error(`flow save: ${saved.status} ${JSON.stringify(saved.body)}`);

  return { id: res.body.id as number, name };
};

/** a phrase campaign of a new flow on a new connection of the tenant */
export const addPhraseCampaign = async (server: TTestServer, tenant: TTenant, phrase = unique('frase')) => {
  const flow = await addFlow(server, tenant);
  const connectionId = await insertConnection(server, tenant.companyId);
  const res = await server.request('POST', '/api/flowcampaign', {
    token: tenant.token,
    body: { name: unique('Phrase').slice(0, 40), flowId: flow.id, whatsappId: connectionId, phrase },
  });
  if (res.status !== 201) throw new Error(`phrase: ${res.status} ${JSON.stringify(res.body)}`);

  return { id: res.body.id as number, flowId: flow.id, connectionId, phrase };
};
