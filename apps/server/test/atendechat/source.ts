/**
 * A throwaway Atendechat database for the importer's tests: the ancestor's schema (fixtures/atendechat/
 * schema.sql, made by its own migrations) in a new PostgreSQL database, filled with rows shaped as the
 * ancestor writes them (Sequelize's quoted camelCase columns, bcryptjs `$2a$08$` hashes, WhatsApp message ids,
 * media file names under public/), and a public/ folder with the files the messages name.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import bcrypt from 'bcryptjs';
import pg from 'pg';

const SCHEMA = resolve(import.meta.dirname, '../fixtures/atendechat/schema.sql');
export const ADMIN_URL = process.env.IMPORT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const urlFor = (name: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;

  return url.toString();
};

/** a new empty PostgreSQL database; `drop` removes it */
export const createDatabase = async (prefix: string) => {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();

  return {
    name,
    url: urlFor(name),
    drop: async () => {
      const again = new pg.Client({ connectionString: ADMIN_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
};

export type TSourceDb = Awaited<ReturnType<typeof createSource>>;

/** the ancestor's schema in a new database, with a client to fill it and a public/ folder */
export const createSource = async () => {
  const database = await createDatabase('atd_src');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(readFileSync(SCHEMA, 'utf8'));
  // the dump empties search_path for its own session
  await client.query('set search_path to public');
  const publicDir = mkdtempSync(join(tmpdir(), 'atd-public-'));
  /** inserts one row as Sequelize would (quoted camelCase columns) */
  const insert = async (table: string, row: Record<string, unknown>) => {
    const now = new Date('2024-03-01T12:00:00Z');
    const full: Record<string, unknown> = { createdAt: now, updatedAt: now, ...row };
    const cols = Object.keys(full);
    await client.query(
      `insert into "${table}" (${cols.map((c) => `"${c}"`).join(', ')}) values (${cols.map((_, i) => `$${i + 1}`).join(', ')})`,
      cols.map((c) => full[c]),
    );
  };

  return {
    url: database.url,
    publicDir,
    client,
    insert,
    close: async () => {
      await client.end();
      await database.drop();
      rmSync(publicDir, { recursive: true, force: true });
    },
  };
};

/** bcryptjs at cost 8, as the ancestor's User model hashes (`$2a$08$…`) */
export const ancestorHash = (password: string) => bcrypt.hashSync(password, 8);

export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f1e1a80000000049454e44ae426082',
  'hex',
);

export const TICKET_UUID = '5f0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c01';
export const OLD = {
  admin: { email: 'admin@admin.com', password: '123456' },
  agent: { email: 'ana@loja.com', password: 'ana-pass-9' },
  manager: { email: 'bruno@loja.com', password: 'bruno-pass-1' },
};
export const FLOW = {
  nodes: [
    { id: '1', type: 'start', data: { label: 'Início' }, position: { x: 0, y: 0 } },
    { id: '2', type: 'img', data: { url: 'flow-missing.png' }, position: { x: 0, y: 100 } },
    {
      id: '3',
      type: 'singleBlock',
      data: { seq: [1], elements: [{ number: 1, type: 'img', value: '1709294400000.png' }] },
      position: { x: 0, y: 200 },
    },
  ],
  connections: [
    { source: '1', sourceHandle: 'a', target: '2' },
    { source: '2', sourceHandle: 'a', target: '3' },
  ],
};

/** the ancestor's Baileys session text for a connection (`{creds, keys}` with BufferJSON buffers) */
const session = () =>
  JSON.stringify({
    creds: {
      noiseKey: { private: { type: 'Buffer', data: 'AAAA' }, public: { type: 'Buffer', data: 'BBBB' } },
      signedIdentityKey: { private: { type: 'Buffer', data: 'CCCC' }, public: { type: 'Buffer', data: 'DDDD' } },
      registered: true,
      me: { id: '5511900000000:1@s.whatsapp.net' },
    },
    keys: { preKeys: { '1': { private: { type: 'Buffer', data: 'EEEE' } } }, sessions: {} },
  });

/**
 * Two companies as an Atendechat install holds them, with the odd rows the issue names: a connection with
 * companyId NULL, a duplicate contact number, a ticket of a deleted contact, a quote of a message that is not
 * there, a colour that is not a colour, a media path leaving public/, a missing file and an HTML file.
 */
export const fillSample = async (src: TSourceDb, opts: { extraMessages?: number } = {}) => {
  const { insert } = src;
  await insert('Plans', {
    id: 1,
    name: 'Plano 1',
    users: 10,
    connections: 10,
    queues: 10,
    value: 30,
    useCampaigns: true,
    useKanban: true,
    useOpenAi: false,
  });
  await insert('Plans', {
    id: 2,
    name: 'Pro',
    users: 50,
    connections: 5,
    queues: 20,
    value: 199.9,
    useCampaigns: true,
    useOpenAi: false,
    useKanban: null,
  });
  const hours = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }];
  await insert('Companies', {
    id: 1,
    name: 'Empresa 1',
    planId: 1,
    status: true,
    dueDate: new Date('2093-03-14T03:00:00Z'),
    recurrence: 'MENSAL',
    schedules: JSON.stringify(hours),
  });
  await insert('Companies', {
    id: 7,
    name: 'Loja Dois',
    email: 'loja@dois.com',
    phone: '1133334444',
    planId: 2,
    status: true,
    language: 'es',
  });
  await insert('Settings', { id: 1, key: 'userRating', value: 'enabled', companyId: 1 });
  await insert('Settings', { id: 2, key: 'scheduleType', value: 'queue', companyId: 7 });
  await insert('Settings', { id: 3, key: 'orphan', value: 'x', companyId: null });
  await insert('Users', {
    id: 1,
    name: 'Admin',
    email: OLD.admin.email,
    passwordHash: ancestorHash(OLD.admin.password),
    profile: 'admin',
    companyId: 1,
    super: true,
    tokenVersion: 0,
    allTicket: 'enabled',
  });
  await insert('Users', {
    id: 5,
    name: 'Ana',
    email: OLD.agent.email,
    passwordHash: ancestorHash(OLD.agent.password),
    profile: 'user',
    companyId: 7,
    super: false,
    tokenVersion: 0,
    allTicket: 'desabled',
  });
  await insert('Users', {
    id: 6,
    name: 'Ana again',
    email: 'ANA@loja.com',
    passwordHash: ancestorHash('x'),
    profile: 'user',
    companyId: 7,
    tokenVersion: 0,
    allTicket: 'desabled',
  });
  await insert('Users', {
    id: 8,
    name: 'Bruno',
    email: OLD.manager.email,
    passwordHash: ancestorHash(OLD.manager.password),
    profile: 'admin',
    companyId: 7,
    super: false,
    tokenVersion: 0,
    allTicket: 'enabled',
  });
  await insert('FlowBuilders', {
    id: 4,
    user_id: 5,
    name: 'Boas-vindas',
    active: true,
    flow: JSON.stringify(FLOW),
    company_id: 7,
  });
  await insert('QueueIntegrations', {
    id: 1,
    type: 'typebot',
    name: 'Typebot',
    projectName: 'Typebot',
    jsonContent: '',
    language: 'pt-BR',
    urlN8N: 'https://typebot.example',
    companyId: 7,
    typebotSlug: 'bot',
    typebotExpires: 0,
    typebotKeywordFinish: 'sair',
    typebotUnknownMessage: '?',
    typebotDelayMessage: 1000,
  });
  await insert('QueueIntegrations', {
    id: 2,
    type: 'dialogflow',
    name: 'DF',
    projectName: 'proj-1',
    jsonContent: '{"private_key":"k"}',
    language: 'pt-BR',
    urlN8N: '',
    companyId: 7,
    typebotSlug: '',
    typebotExpires: 0,
    typebotKeywordFinish: '',
    typebotUnknownMessage: '',
    typebotDelayMessage: 1000,
  });
  await insert('Prompts', {
    id: 1,
    name: 'Atendente IA',
    apiKey: 'sk-old-key-123456',
    prompt: 'Seja gentil',
    maxTokens: 100,
    maxMessages: 10,
    temperature: 1,
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    companyId: 7,
  });
  await insert('Queues', {
    id: 3,
    name: 'Suporte',
    color: '#FF0000',
    greetingMessage: 'Olá!',
    companyId: 7,
    orderQueue: 1,
    schedules: JSON.stringify(hours),
    outOfHoursMessage: 'Fechado',
  });
  await insert('Queues', {
    id: 4,
    name: 'Vendas',
    color: 'blue',
    companyId: 7,
    orderQueue: 2,
    integrationId: 1,
    promptId: 1,
  });
  await src.client.query('update "Prompts" set "queueId" = 3 where id = 1');
  await insert('Queues', { id: 9, name: 'Geral', color: '#00FF00', companyId: 1 });
  await insert('QueueOptions', {
    id: 1,
    title: 'Boletos',
    message: 'Digite 1',
    option: '1',
    queueId: 3,
    parentId: null,
  });
  await insert('QueueOptions', { id: 2, title: '2ª via', message: 'ok', option: '1', queueId: 3, parentId: 1 });
  await insert('UserQueues', { userId: 5, queueId: 3 });
  await insert('Whatsapps', {
    id: 2,
    name: 'Loja WhatsApp',
    status: 'CONNECTED',
    isDefault: true,
    retries: 0,
    companyId: 7,
    session: session(),
    greetingMessage: 'Bem-vindo',
    complationMessage: 'Tchau',
    token: 'tok-loja',
    provider: 'beta',
    expiresTicket: 30,
    flowIdWelcome: 4,
  });
  await insert('Whatsapps', {
    id: 3,
    name: 'Sem empresa',
    status: 'qrcode',
    isDefault: false,
    retries: 0,
    companyId: null,
  });
  await insert('Whatsapps', {
    id: 4,
    name: 'Matriz',
    status: 'DISCONNECTED',
    isDefault: true,
    retries: 0,
    companyId: 1,
    session: '{not json',
  });
  await insert('WhatsappQueues', { whatsappId: 2, queueId: 3 });
  await insert('WhatsappQueues', { whatsappId: 2, queueId: 4 });
  await src.client.query('update "Users" set "whatsappId" = 2 where id = 5');
  await insert('FlowCampaigns', {
    id: 1,
    companyId: 7,
    userId: 5,
    name: 'Promo',
    flowId: 4,
    phrase: 'promo',
    status: true,
    whatsappId: 2,
  });
  await insert('FlowDefaults', { id: 1, companyId: 7, userId: 5, flowIdWelcome: 4 });
  await insert('Contacts', {
    id: 11,
    name: 'Maria',
    number: '5511988887777',
    email: '',
    isGroup: false,
    companyId: 7,
    disableBot: false,
    whatsappId: 2,
  });
  // the same number again in the same company (an older ancestor without the unique constraint)
  await src.client.query('alter table "Contacts" drop constraint number_companyid_unique');
  await insert('Contacts', {
    id: 12,
    name: 'Maria (dup)',
    number: '5511988887777',
    email: '',
    isGroup: false,
    companyId: 7,
    disableBot: false,
  });
  await insert('Contacts', {
    id: 13,
    name: '',
    number: '5511977776666',
    email: '',
    isGroup: false,
    companyId: 7,
    disableBot: true,
  });
  await insert('Contacts', {
    id: 14,
    name: 'Maria',
    number: '5511988887777',
    email: '',
    isGroup: false,
    companyId: 1,
    disableBot: false,
  });
  // a later version's column this importer does not know
  await src.client.query('alter table "Tags" add column "legacyCode" varchar(20)');
  await insert('ContactCustomFields', { id: 1, name: 'CPF', value: '123', contactId: 11 });
  await insert('Tags', { id: 2, name: 'VIP', color: 'verde', companyId: 7, kanban: 1 });
  await insert('Tags', { id: 3, name: 'Novo', color: '#112233', companyId: 1, kanban: 0 });
  await insert('Tickets', {
    id: 20,
    status: 'open',
    lastMessage: 'tudo certo',
    contactId: 11,
    userId: 5,
    whatsappId: 2,
    isGroup: false,
    unreadMessages: 2,
    queueId: 3,
    companyId: 7,
    uuid: TICKET_UUID,
    fromMe: false,
    typebotStatus: false,
    flowWebhook: false,
  });
  await insert('Tickets', {
    id: 21,
    status: 'pending',
    contactId: 12,
    whatsappId: 2,
    isGroup: false,
    companyId: 7,
    uuid: '5f0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c02',
    fromMe: false,
    typebotStatus: false,
    flowWebhook: false,
  });
  // orphans, as older versions without (or with deferred) foreign keys left them: checks off for these rows
  await src.client.query('set session_replication_role = replica');
  // a ticket whose attendant was deleted
  await insert('Tickets', {
    id: 23,
    status: 'closed',
    contactId: 13,
    userId: 999,
    whatsappId: 2,
    isGroup: false,
    companyId: 7,
    uuid: '5f0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c05',
    fromMe: false,
    typebotStatus: false,
    flowWebhook: false,
  });
  await insert('Tickets', {
    id: 22,
    status: 'closed',
    contactId: 999,
    whatsappId: 2,
    isGroup: false,
    companyId: 7,
    uuid: '5f0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c03',
    fromMe: false,
    typebotStatus: false,
    flowWebhook: false,
  });
  await src.client.query('set session_replication_role = origin');
  await insert('Tickets', {
    id: 30,
    status: 'closed',
    contactId: 14,
    whatsappId: 4,
    userId: 1,
    isGroup: false,
    companyId: 1,
    uuid: '5f0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c04',
    fromMe: true,
    typebotStatus: false,
    flowWebhook: false,
  });
  await insert('TicketTags', { ticketId: 20, tagId: 2 });
  await insert('TicketTags', { ticketId: 20, tagId: 3 });
  await insert('TicketNotes', { id: 1, note: 'cliente antigo', userId: 5, contactId: 11, ticketId: 20 });
  await insert('TicketTraking', {
    id: 1,
    ticketId: 20,
    companyId: 7,
    whatsappId: 2,
    userId: 5,
    queuedAt: new Date('2024-03-01T12:00:00Z'),
    startedAt: new Date('2024-03-01T12:05:00Z'),
    finishedAt: new Date('2024-03-01T12:30:00Z'),
    rated: true,
  });
  await insert('UserRatings', { id: 1, ticketId: 20, companyId: 7, userId: 5, rate: 3 });
  writeFileSync(join(src.publicDir, '1709294400000.png'), PNG);
  writeFileSync(join(src.publicDir, '1709294400001_page.html'), '<html><script>alert(1)</script></html>');
  mkdirSync(join(src.publicDir, '..', 'outside'), { recursive: true });
  // a version that keeps `read` as an integer
  await src.client.query('alter table "Messages" alter column read drop default');
  await src.client.query('alter table "Messages" alter column read type integer using read::int');
  const at = (s: number) => new Date(Date.UTC(2024, 2, 1, 12, 0, s));
  const msg = (id: string, s: number, row: Record<string, unknown>) =>
    insert('Messages', {
      id,
      ack: 0,
      read: 1,
      ticketId: 20,
      fromMe: false,
      isDeleted: false,
      isEdited: false,
      companyId: 7,
      contactId: 11,
      remoteJid: '5511988887777@s.whatsapp.net',
      createdAt: at(s),
      updatedAt: at(s),
      ...row,
    });
  await msg('3EB0A1', 1, { body: 'Oi, preciso de ajuda', mediaType: 'conversation' });
  await msg('3EB0A2', 2, { body: '\u200eBem-vindo! Escolha uma opção', fromMe: true, contactId: null, ack: 3 });
  await msg('3EB0A3', 3, { body: '-', mediaType: 'image', mediaUrl: '1709294400000.png' });
  await msg('3EB0A4', 4, { body: 'sobre isso', quotedMsgId: '3EB0A1', mediaType: 'extendedTextMessage' });
  // a quote of a message deleted since (no foreign key check for it, as with the orphans above)
  await src.client.query('set session_replication_role = replica');
  await msg('3EB0A5', 5, { body: 'e isto?', quotedMsgId: 'GONE00' });
  await src.client.query('set session_replication_role = origin');
  await msg('3EB0A6', 6, { body: 'page', mediaType: 'application', mediaUrl: '1709294400001_page.html' });
  await msg('3EB0A7', 7, { body: 'escape', mediaType: 'application', mediaUrl: '../outside/secret.txt' });
  await msg('3EB0A8', 8, { body: 'audio', mediaType: 'audio', mediaUrl: 'gone.ogg', read: 0 });
  await msg('3EB0A9', 9, { body: 'tudo certo', fromMe: true, contactId: null, ack: 4, isEdited: true });
  await src.client.query('set session_replication_role = replica');
  await insert('Messages', {
    id: 'XX0001',
    body: 'lost',
    ack: 0,
    read: 1,
    ticketId: 22,
    fromMe: false,
    isDeleted: false,
    isEdited: false,
    companyId: 7,
    contactId: 999,
  });
  await src.client.query('set session_replication_role = origin');
  await insert('Messages', {
    id: 'MTZ001',
    body: 'matriz',
    ack: 0,
    read: 1,
    ticketId: 30,
    fromMe: true,
    isDeleted: false,
    isEdited: false,
    companyId: 1,
  });
  mkdirSync(join(src.publicDir, 'quickMessage'), { recursive: true });
  writeFileSync(join(src.publicDir, 'quickMessage', '1709294400002.png'), PNG);
  await insert('QuickMessages', {
    id: 1,
    shortcode: 'ola',
    message: 'Olá, tudo bem?',
    companyId: 7,
    userId: 5,
    mediaPath: '1709294400002.png',
    mediaName: 'logo.png',
  });
  await insert('Schedules', {
    id: 1,
    body: 'Lembrete',
    sendAt: new Date('2099-01-01T12:00:00Z'),
    contactId: 11,
    companyId: 7,
    userId: 5,
    status: 'PENDENTE',
  });
  await insert('Schedules', {
    id: 2,
    body: 'Enviado',
    sendAt: at(0),
    sentAt: at(1),
    contactId: 12,
    ticketId: 20,
    companyId: 7,
    userId: 5,
    status: 'ENVIADA',
  });
  await insert('Helps', { id: 1, title: 'Como usar', description: 'Vídeo', video: 'abc123' });
  await insert('Invoices', { id: 1, detail: 'Pro', status: 'paid', value: 199.9, dueDate: '2024-04-01', companyId: 7 });
  mkdirSync(join(src.publicDir, 'announcements'), { recursive: true });
  writeFileSync(join(src.publicDir, 'announcements', 'aviso.png'), PNG);
  await insert('Announcements', {
    id: 1,
    priority: 1,
    title: 'Aviso',
    text: 'Manutenção',
    companyId: 1,
    status: true,
    mediaPath: 'aviso.png',
    mediaName: 'aviso.png',
  });
  await insert('Files', { id: 1, companyId: 7, name: 'Catálogo', message: 'veja' });
  mkdirSync(join(src.publicDir, 'fileList', '1'), { recursive: true });
  writeFileSync(join(src.publicDir, 'fileList', '1', 'catalogo.pdf'), '%PDF-1.4\n');
  await insert('FilesOptions', {
    id: 1,
    name: 'catalogo.pdf',
    path: 'catalogo.pdf',
    fileId: 1,
    mediaType: 'application/pdf',
  });
  await insert('ContactLists', { id: 1, name: 'Clientes', companyId: 7 });
  await insert('ContactListItems', {
    id: 1,
    name: 'Maria',
    number: '5511988887777',
    contactListId: 1,
    companyId: 7,
    isWhatsappValid: true,
  });
  await insert('ContactListItems', {
    id: 2,
    name: 'Maria de novo',
    number: '5511988887777',
    contactListId: 1,
    companyId: 7,
  });
  await insert('CampaignSettings', { id: 1, key: 'messageInterval', value: '20', companyId: 7 });
  await insert('Campaigns', {
    id: 1,
    name: 'Black Friday',
    status: 'PROGRAMADA',
    message1: 'Oi {nome}',
    companyId: 7,
    contactListId: 1,
    whatsappId: 2,
    scheduledAt: new Date('2099-11-27T12:00:00Z'),
  });
  await insert('Campaigns', {
    id: 2,
    name: 'Antiga',
    status: 'FINALIZADA',
    message1: 'Oi',
    companyId: 7,
    contactListId: 1,
    whatsappId: 2,
    completedAt: at(5),
  });
  await insert('CampaignShipping', {
    id: 1,
    number: '5511988887777',
    message: '\u200cOi Maria',
    contactId: 1,
    campaignId: 2,
    deliveredAt: at(4),
  });
  await insert('Chats', {
    id: 1,
    title: 'Equipe',
    uuid: '9a0e7a0c-3c55-4c0e-9d52-4f1f7a2b6c01',
    ownerId: 5,
    companyId: 7,
    lastMessage: 'bom dia',
  });
  await insert('ChatUsers', { id: 1, chatId: 1, userId: 5, unreads: 0 });
  await insert('ChatUsers', { id: 2, chatId: 1, userId: 8, unreads: 1 });
  await insert('ChatMessages', { id: 1, chatId: 1, senderId: 5, message: 'bom dia' });
  for (let i = 0; i < (opts.extraMessages ?? 0); i++) {
    await msg(`3EB1${String(i).padStart(4, '0')}`, 10 + i, { body: `mensagem ${i}` });
  }
};
