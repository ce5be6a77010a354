import {
  events,
  type TChannelProvider,
  type TConnection,
  type TConnectionBody,
  type TConnectionError,
  type TConnectionStatus,
  type TConnectionUpdateBody,
} from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { shownChannelConfig, storedChannelConfig } from '../cloud-api/channel-config';
import { assertPlanLimit } from '../plans/plan-limits';
import { announceTicket } from '../tickets/ticket-announcer';
import {
  isTokenCollision,
  maskToken,
  openToken,
  type TStoredToken,
  tokenToCreate,
  tokenToUpdate,
  unusableToken,
} from './connection-token';
import {
  closeActiveTicketsOfConnection,
  countCompanyQueues,
  countConnections,
  deleteConnectionRow,
  findConnectionRow,
  firstOtherConnection,
  insertConnectionRow,
  flowOfCompany,
  integrationOfCompany,
  listConnectionRows,
  lockConnectionRow,
  nameTaken,
  promptOfCompany,
  queuesOfConnections,
  replaceConnectionQueues,
  type TConnectionRow,
  tokenTaken,
  unsetOtherDefaults,
  updateConnectionRow,
} from './connections.repo';

const toDto = (
  row: TConnectionRow,
  queues: { id: number; name: string; color: string }[],
  revealToken: boolean,
): TConnection => ({
  id: row.id,
  name: row.name,
  status: row.status as TConnectionStatus,
  provider: row.provider as TChannelProvider,
  isDefault: row.isDefault,
  qrcode: row.qrcode,
  retries: row.retries,
  lastError: (row.lastError as TConnectionError | null) ?? null,
  phoneNumber: row.phoneNumber,
  updatedAt: row.updatedAt.toISOString(),
  greetingMessage: row.greetingMessage,
  complationMessage: row.complationMessage,
  outOfHoursMessage: row.outOfHoursMessage,
  ratingMessage: row.ratingMessage,
  expiresInactiveMessage: row.expiresInactiveMessage,
  expiresTicket: row.expiresTicket,
  timeUseBotQueues: row.timeUseBotQueues,
  maxUseBotQueues: row.maxUseBotQueues,
  transferQueueId: row.transferQueueId,
  timeToTransfer: row.timeToTransfer,
  closeOpenChatsAfterMinutes: row.closeOpenChatsAfterMinutes,
  promptId: row.promptId,
  integrationId: row.integrationId,
  flowIdWelcome: row.flowIdWelcome,
  flowIdNotPhrase: row.flowIdNotPhrase,
  token: revealToken ? openToken(row.token) : maskToken(openToken(row.token)),
  channelConfig: shownChannelConfig(row),
  queues,
  queueIds: queues.map((q) => q.id),
});

const withQueues = async (db: TDbOrTx, companyId: number, rows: TConnectionRow[], revealToken = false) => {
  const queues = await queuesOfConnections(
    db,
    companyId,
    rows.map((r) => r.id),
  );

  return rows.map((row) =>
    toDto(
      row,
      queues.filter((q) => q.whatsappId === row.id).map(({ id, name, color }) => ({ id, name, color })),
      revealToken,
    ),
  );
};

export const loadConnection = async (db: TDbOrTx, companyId: number, id: number, revealToken = false) => {
  const row = await findConnectionRow(db, companyId, id);
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');

  return (await withQueues(db, companyId, [row], revealToken))[0];
};

export const listConnections = async (ctx: TAppContext, auth: TAuth) =>
  withQueues(ctx.db, auth.companyId, await listConnectionRows(ctx.db, auth.companyId));

/** the editor's read (`session=0`) shows the admin the whole token */
export const getConnection = (ctx: TAppContext, auth: TAuth, id: number, editing: boolean) =>
  loadConnection(ctx.db, auth.companyId, id, editing && auth.isAdmin);

const invalid = (path: string, message = 'invalid') =>
  new AppError('ERR_VALIDATION', `Invalid ${path}`, [{ path, message }]);

type TEffective = {
  name?: string;
  token?: TStoredToken;
  queueIds?: number[];
  greetingMessage: string;
  transferQueueId?: number | null;
  promptId?: number | null;
  integrationId?: number | null;
  flowIdWelcome?: number | null;
  flowIdNotPhrase?: number | null;
};

/** the rules shared by create and update, checked on the values the row will have */
const assertRules = async (db: TDbOrTx, companyId: number, next: TEffective, queueIds: number[], exceptId?: number) => {
  if (next.name !== undefined && (await nameTaken(db, companyId, next.name, exceptId))) {
    throw new AppError('ERR_CONFLICT', 'A connection with this name exists', [{ path: 'name', message: 'duplicated' }]);
  }
  // another connection's token (any company's) is refused like a weak one: nothing tells that it is in use
  if (next.token?.tokenHash && (await tokenTaken(db, next.token.tokenHash, exceptId))) throw unusableToken();
  if (next.queueIds?.length && (await countCompanyQueues(db, companyId, next.queueIds)) !== next.queueIds.length) {
    throw invalid('queueIds');
  }
  if (next.transferQueueId && (await countCompanyQueues(db, companyId, [next.transferQueueId])) !== 1) {
    throw invalid('transferQueueId');
  }
  if (next.promptId && !(await promptOfCompany(db, companyId, next.promptId))) throw invalid('promptId');
  if (next.integrationId && !(await integrationOfCompany(db, companyId, next.integrationId))) {
    throw invalid('integrationId');
  }
  for (const key of ['flowIdWelcome', 'flowIdNotPhrase'] as const) {
    const flowId = next[key];
    if (flowId && !(await flowOfCompany(db, companyId, flowId)))
      throw new AppError('ERR_NO_FLOW_FOUND', `No flow ${key}`);
  }
  if (queueIds.length > 1 && next.greetingMessage.trim() === '') {
    throw new AppError('ERR_WAPP_GREETING_REQUIRED', 'A greeting is required when there is more than one queue');
  }
};

/** `company-{id}-whatsapp` update of each connection, after the commit */
const announceConnections = async (ctx: TAppContext, companyId: number, ids: number[]) => {
  for (const id of new Set(ids)) {
    const row = await findConnectionRow(ctx.db, companyId, id);
    if (!row) continue;
    const [whatsapp] = await withQueues(ctx.db, companyId, [row]);
    ctx.realtime.toCompany(companyId, events.whatsapp(companyId), { action: 'update', whatsapp });
  }
};

const unique = (ids: number[]) => [...new Set(ids)];

/** two saves of one token racing past the check: the loser is answered like any unusable token */
const tokenRace = (err: unknown): never => {
  throw isTokenCollision(err) ? unusableToken() : err;
};

export const createConnection = async (ctx: TAppContext, auth: TAuth, body: TConnectionBody) => {
  const companyId = auth.companyId;
  const queueIds = unique(body.queueIds);
  const { row, unset } = await ctx.db.transaction(async (tx) => {
    await assertPlanLimit(tx, companyId, 'connections');
    const token = tokenToCreate(body.token);
    await assertRules(tx, companyId, { ...body, token, queueIds }, queueIds);
    // the company's first connection is its default
    const isDefault = body.isDefault || (await countConnections(tx, companyId)) === 0;
    const inserted = await insertConnectionRow(tx, {
      companyId,
      name: body.name,
      provider: body.provider,
      isDefault: false,
      greetingMessage: body.greetingMessage,
      complationMessage: body.complationMessage,
      outOfHoursMessage: body.outOfHoursMessage,
      ratingMessage: body.ratingMessage,
      expiresInactiveMessage: body.expiresInactiveMessage,
      expiresTicket: body.expiresTicket,
      timeUseBotQueues: body.timeUseBotQueues,
      maxUseBotQueues: body.maxUseBotQueues,
      transferQueueId: body.transferQueueId,
      timeToTransfer: body.timeToTransfer,
      closeOpenChatsAfterMinutes: body.closeOpenChatsAfterMinutes,
      promptId: body.promptId,
      integrationId: body.integrationId,
      flowIdWelcome: body.flowIdWelcome,
      flowIdNotPhrase: body.flowIdNotPhrase,
      ...token,
      ...storedChannelConfig(body.provider, body.channelConfig),
    }).catch(tokenRace);
    let others: number[] = [];
    if (isDefault) {
      others = await unsetOtherDefaults(tx, companyId, inserted.id);
      await updateConnectionRow(tx, companyId, inserted.id, { isDefault: true });
    }
    await replaceConnectionQueues(tx, companyId, inserted.id, queueIds);

    return { row: inserted, unset: others };
  });
  await announceConnections(ctx, companyId, [...unset, row.id]);
  await ctx.channels.start({ id: row.id, companyId, provider: row.provider as TChannelProvider });

  return loadConnection(ctx.db, companyId, row.id, true);
};

export const updateConnection = async (ctx: TAppContext, auth: TAuth, id: number, body: TConnectionUpdateBody) => {
  const companyId = auth.companyId;
  const { before, unset, settingsChanged } = await ctx.db.transaction(async (tx) => {
    const current = await lockConnectionRow(tx, companyId, id);
    if (!current) throw new AppError('ERR_NO_WAPP_FOUND');
    const currentQueues = (await queuesOfConnections(tx, companyId, [id])).map((q) => q.id);
    const queueIds = body.queueIds ? unique(body.queueIds) : currentQueues;
    // the masked (or the current) token sent back by the editor means "unchanged"
    const token = tokenToUpdate(body.token, current);
    await assertRules(
      tx,
      companyId,
      {
        name: body.name,
        token,
        queueIds: body.queueIds ? queueIds : undefined,
        greetingMessage: body.greetingMessage ?? current.greetingMessage,
        transferQueueId: body.transferQueueId,
        promptId: body.promptId,
        integrationId: body.integrationId,
        flowIdWelcome: body.flowIdWelcome,
        flowIdNotPhrase: body.flowIdNotPhrase,
      },
      queueIds,
      id,
    );
    if (body.isDefault === false && current.isDefault) {
      throw new AppError('ERR_NO_OTHER_WHATSAPP', 'At least one default connection is required');
    }
    const channel = storedChannelConfig(
      (body.provider ?? current.provider) as TChannelProvider,
      body.channelConfig,
      current,
    );
    let others: number[] = [];
    if (body.isDefault && !current.isDefault) others = await unsetOtherDefaults(tx, companyId, id);
    await updateConnectionRow(tx, companyId, id, {
      name: body.name,
      provider: body.provider,
      isDefault: body.isDefault,
      greetingMessage: body.greetingMessage,
      complationMessage: body.complationMessage,
      outOfHoursMessage: body.outOfHoursMessage,
      ratingMessage: body.ratingMessage,
      expiresInactiveMessage: body.expiresInactiveMessage,
      expiresTicket: body.expiresTicket,
      timeUseBotQueues: body.timeUseBotQueues,
      maxUseBotQueues: body.maxUseBotQueues,
      transferQueueId: body.transferQueueId,
      timeToTransfer: body.timeToTransfer,
      closeOpenChatsAfterMinutes: body.closeOpenChatsAfterMinutes,
      promptId: body.promptId,
      integrationId: body.integrationId,
      flowIdWelcome: body.flowIdWelcome,
      flowIdNotPhrase: body.flowIdNotPhrase,
      ...token,
      ...channel,
    }).catch(tokenRace);
    if (body.queueIds) await replaceConnectionQueues(tx, companyId, id, queueIds);

    return { before: current, unset: others, settingsChanged: !!channel };
  });
  await announceConnections(ctx, companyId, [...unset, id]);
  // another transport: the session starts over on the new driver
  if (body.provider && body.provider !== before.provider) {
    await ctx.channels.logout(id);
    await ctx.channels.start({ id, companyId, provider: body.provider });
  } else if (settingsChanged && before.provider === 'cloud-api') {
    // new Cloud API settings (token, number): checked again
    await ctx.channels.restart(id);
  }

  return loadConnection(ctx.db, companyId, id, true);
};

export const deleteConnection = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const companyId = auth.companyId;
  if (!(await findConnectionRow(ctx.db, companyId, id))) throw new AppError('ERR_NO_WAPP_FOUND');
  // no more messages arrive for it while it goes
  await ctx.channels.forget(id);
  const { closed, nextDefault } = await ctx.db.transaction(async (tx) => {
    const current = await lockConnectionRow(tx, companyId, id);
    if (!current) throw new AppError('ERR_NO_WAPP_FOUND');
    const closedTickets = await closeActiveTicketsOfConnection(tx, companyId, id);
    await deleteConnectionRow(tx, companyId, id);
    let next: number | undefined;
    if (current.isDefault) {
      next = (await firstOtherConnection(tx, companyId, id))?.id;
      if (next) await updateConnectionRow(tx, companyId, next, { isDefault: true });
    }

    return { closed: closedTickets, nextDefault: next };
  });
  ctx.realtime.toCompany(companyId, events.whatsapp(companyId), { action: 'delete', whatsappId: id });
  if (nextDefault) await announceConnections(ctx, companyId, [nextDefault]);
  for (const ticket of closed) {
    await announceTicket(ctx, companyId, ticket.id, ticket).catch((err) =>
      ctx.log.warn({ err, ticketId: ticket.id }, 'announcing a closed ticket failed'),
    );
  }
};

const sessionRef = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = await findConnectionRow(ctx.db, auth.companyId, id);
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');

  return { id: row.id, companyId: row.companyId, provider: row.provider as TChannelProvider };
};

/** POST /whatsappsession/:id: try again with what is stored */
export const startSession = async (ctx: TAppContext, auth: TAuth, id: number) => {
  await ctx.channels.start(await sessionRef(ctx, auth, id));

  return { message: 'Starting session.' };
};

/** PUT /whatsappsession/:id: forget the pairing and show a new QR code */
export const renewSession = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const ref = await sessionRef(ctx, auth, id);
  if (ref.provider === 'cloud-api')
    throw new AppError('ERR_CHANNEL_UNSUPPORTED', 'A Cloud API connection has no QR code');
  await ctx.channels.logout(id);
  await ctx.channels.start(ref);

  return { message: 'Starting session.' };
};

/** DELETE /whatsappsession/:id: disconnect (logout) */
export const endSession = async (ctx: TAppContext, auth: TAuth, id: number) => {
  await sessionRef(ctx, auth, id);
  await ctx.channels.logout(id);

  return { message: 'Session disconnected.' };
};
