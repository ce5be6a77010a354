import { randomBytes, randomUUID } from 'node:crypto';
import {
  events,
  rooms,
  type TIntegrationDelivery,
  type TIntegrationTestBody,
  type TListQuery,
  type TQueueIntegration,
  type TQueueIntegrationBody,
  V,
} from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { iso, pageAnswer, pageWindow } from '../../lib/paging';
import { lockCompany } from '../companies/companies.repo';
import {
  deleteIntegrationRow,
  findIntegration,
  flowOfCompany,
  insertIntegration,
  integrationNameTaken,
  pageDeliveries,
  pageIntegrations,
  type TIntegrationInsert,
  type TIntegrationRow,
  updateIntegrationRow,
} from './queue-integrations.repo';
import { DialogflowError, DialogflowInputError, detectIntent, parseServiceAccount } from './runtime/dialogflow';
import { isMasked, maskStored, openSecret, sealSecret } from './runtime/io';

/** the API's integration: its secrets masked (a masked value sent back keeps the stored one) */
export const toIntegration = (row: TIntegrationRow): TQueueIntegration => ({
  id: row.id,
  type: row.type as TQueueIntegration['type'],
  name: row.name,
  projectName: row.projectName,
  jsonContent: maskStored(row.jsonContent),
  language: row.language,
  urlN8N: row.urlN8N,
  typebotSlug: row.typebotSlug,
  typebotExpires: row.typebotExpires,
  typebotDelayMessage: row.typebotDelayMessage,
  typebotKeywordFinish: row.typebotKeywordFinish,
  typebotKeywordRestart: row.typebotKeywordRestart,
  typebotRestartMessage: row.typebotRestartMessage,
  typebotUnknownMessage: row.typebotUnknownMessage,
  flowId: row.flowId,
  webhookSecret: maskStored(row.webhookSecret),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const announce = (ctx: TAppContext, companyId: number, payload: unknown) =>
  ctx.realtime.to(rooms.admins(companyId), events.queueIntegration(companyId), payload);

const load = async (ctx: TAppContext, companyId: number, id: number) => {
  const row = await findIntegration(ctx.db, companyId, id);
  if (!row) throw new AppError('ERR_NO_INTEGRATION_FOUND');
  return row;
};

/** the list answers every company (the connection and queue dialogs read it); empty without the plan flag */
export const listIntegrations = async (ctx: TAppContext, auth: TAuth, query: TListQuery) => {
  if (!auth.planFlags.useIntegrations) return { queueIntegrations: [], count: 0, hasMore: false };
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageIntegrations(ctx.db, auth.companyId, query.searchParam, limit, offset);
  const page = pageAnswer(rows.map(toIntegration), total, query.pageNumber);
  return { queueIntegrations: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getIntegration = async (ctx: TAppContext, auth: TAuth, id: number) =>
  toIntegration(await load(ctx, auth.companyId, id));

/**
 * The columns to write: fields of other types are emptied (a webhook keeps no service-account JSON), a masked
 * secret keeps the stored one, a webhook without a key gets a generated one.
 */
const columnsOf = async (
  ctx: TAppContext,
  companyId: number,
  body: TQueueIntegrationBody,
  before?: TIntegrationRow,
): Promise<Omit<TIntegrationInsert, 'companyId'>> => {
  const t = body.type;
  let flowId: number | null = null;
  // a flowbuilder integration without a flow runs the connection's own flows (the ancestor's dialog sends none)
  if (t === 'flowbuilder' && body.flowId) {
    const flow = await flowOfCompany(ctx.db, companyId, body.flowId);
    if (!flow) throw new AppError('ERR_VALIDATION', 'Unknown flow', [{ path: 'flowId', message: 'invalid' }]);
    flowId = flow.id;
  }
  let jsonContent = '';
  if (t === 'dialogflow') {
    if (isMasked(body.jsonContent)) {
      if (!before?.jsonContent)
        throw new AppError('ERR_VALIDATION', 'Send the service-account JSON', [
          { path: 'jsonContent', message: 'required' },
        ]);
      jsonContent = before.jsonContent;
    } else jsonContent = sealSecret(ctx, body.jsonContent.trim());
  }
  let webhookSecret = '';
  if (t === 'n8n' || t === 'webhook') {
    if (body.webhookSecret && !isMasked(body.webhookSecret)) webhookSecret = sealSecret(ctx, body.webhookSecret);
    else if (before?.webhookSecret) webhookSecret = before.webhookSecret;
    else webhookSecret = sealSecret(ctx, randomBytes(24).toString('base64url'));
  }
  const typebot = t === 'typebot';
  return {
    type: t,
    name: body.name,
    // the ancestor's dialog copies the name into projectName for the other types
    projectName: t === 'dialogflow' ? body.projectName : body.name,
    jsonContent,
    language: body.language,
    urlN8N: t === 'dialogflow' || t === 'flowbuilder' ? '' : body.urlN8N,
    typebotSlug: typebot ? body.typebotSlug : '',
    typebotExpires: body.typebotExpires,
    typebotDelayMessage: body.typebotDelayMessage,
    typebotKeywordFinish: typebot ? body.typebotKeywordFinish : '',
    typebotKeywordRestart: typebot ? body.typebotKeywordRestart : '',
    typebotRestartMessage: typebot ? body.typebotRestartMessage : '',
    typebotUnknownMessage: typebot ? body.typebotUnknownMessage : '',
    flowId,
    webhookSecret,
  };
};

const duplicated = () => new AppError('ERR_DUPLICATED_INTEGRATION', 'An integration with this name exists');

export const createIntegration = async (ctx: TAppContext, auth: TAuth, body: TQueueIntegrationBody) => {
  const companyId = auth.companyId;
  const values = await columnsOf(ctx, companyId, body);
  const row = await ctx.db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    if (await integrationNameTaken(tx, companyId, body.name)) throw duplicated();
    return insertIntegration(tx, { companyId, ...values });
  });
  const record = toIntegration(row);
  announce(ctx, companyId, { action: 'create', queueIntegration: record });
  return record;
};

export const updateIntegration = async (ctx: TAppContext, auth: TAuth, id: number, body: TQueueIntegrationBody) => {
  const companyId = auth.companyId;
  const before = await load(ctx, companyId, id);
  const values = await columnsOf(ctx, companyId, body, before);
  const row = await ctx.db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    if (await integrationNameTaken(tx, companyId, body.name, id)) throw duplicated();
    return updateIntegrationRow(tx, companyId, id, values);
  });
  if (!row) throw new AppError('ERR_NO_INTEGRATION_FOUND');
  const record = toIntegration(row);
  announce(ctx, companyId, { action: 'update', queueIntegration: record });
  return record;
};

export const deleteIntegration = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const deleted = await deleteIntegrationRow(ctx.db, auth.companyId, id);
  if (!deleted) throw new AppError('ERR_NO_INTEGRATION_FOUND');
  announce(ctx, auth.companyId, { action: 'delete', integrationId: id });
  return { message: 'Integration deleted' };
};

/** a Dialogflow agent tried with "Olá" through the given credentials (a masked JSON: the stored integration's) */
export const testSession = async (ctx: TAppContext, auth: TAuth, body: TIntegrationTestBody) => {
  let json = body.jsonContent;
  if (isMasked(json)) {
    const stored = body.integrationId ? await load(ctx, auth.companyId, body.integrationId) : undefined;
    if (!stored?.jsonContent)
      throw new AppError('ERR_VALIDATION', 'Send the service-account JSON', [
        { path: 'jsonContent', message: 'required' },
      ]);
    json = openSecret(ctx, stored.jsonContent);
  }
  try {
    parseServiceAccount(json);
  } catch {
    // broken or incomplete key file: the client's own input (400, issue 20 item 11), saying which field is wrong
    // and how to fix it, before asking Google
    throw new AppError('ERR_VALIDATION', 'The service-account JSON is not a valid key file', [
      { path: 'jsonContent', message: V.invalidServiceAccount },
    ]);
  }
  try {
    const result = await detectIntent(ctx, {
      projectName: body.projectName,
      jsonContent: json,
      language: body.language,
      sessionId: `zelo-test-${randomUUID()}`,
      text: 'Olá',
    });
    return { ok: true as const, intent: result.intent, texts: result.texts };
  } catch (err) {
    // the client's own JSON, or a URL the outbound guard refused: a 4xx, no upstream answered anything
    if (err instanceof DialogflowInputError) {
      throw new AppError('ERR_VALIDATION', err.message, [{ path: 'jsonContent', message: 'invalid' }]);
    }
    if (err instanceof AppError) throw err;
    const message = err instanceof DialogflowError ? err.message : 'Dialogflow did not answer';
    throw new AppError('ERR_INTEGRATION_TEST_FAILED', message);
  }
};

const toDelivery = (row: Awaited<ReturnType<typeof pageDeliveries>>['rows'][number]): TIntegrationDelivery => ({
  id: row.id,
  deliveryId: row.deliveryId,
  ticketId: row.ticketId,
  status: row.status as TIntegrationDelivery['status'],
  attempts: row.attempts,
  lastStatus: row.lastStatus,
  lastError: row.lastError,
  createdAt: row.createdAt.toISOString(),
  deliveredAt: iso(row.deliveredAt),
  nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
});

export const listDeliveries = async (ctx: TAppContext, auth: TAuth, id: number, pageNumber: number) => {
  await load(ctx, auth.companyId, id);
  const { limit, offset } = pageWindow(pageNumber);
  const { rows, total } = await pageDeliveries(ctx.db, auth.companyId, id, limit, offset);
  const page = pageAnswer(rows.map(toDelivery), total, pageNumber);
  return { deliveries: page.rows, count: page.count, hasMore: page.hasMore };
};
