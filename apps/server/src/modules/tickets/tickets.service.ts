import { sql } from 'drizzle-orm';
import { endActiveRuns } from '../flows/engine/runs.repo';
import { PAGE_SIZE, type TCreateTicketBody, type TTicketListQuery, type TUpdateTicketBody } from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { SqlParams } from '../../db/statements';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { channelSession } from '../messages/channel-access';
import { removeMediaFile } from '../messages/media';
import { markRead, unreadInbound } from '../messages/messages.repo';
import { sendTicketText } from '../messages/send-message';
import { readSetting } from '../settings/settings.service';
import { acceptGreeting, acceptGreetingClientId, ratingRequest, transferText } from './automatic-texts';
import { assertCanSee, loadViewer, type TViewer } from './ticket-access';
import { announceTicket, announceTicketDeleted, announceUnread, type TTicketPlace } from './ticket-announcer';
import { loadTicketDto, toTickets } from './ticket-dto';
import { newTicketCode } from './ticket-lifecycle';
import { searchCondition, type TSearchCondition } from './ticket-search.repo';
import { allOf, listConditions, pageTicketList } from './ticket-list.repo';
import { pageBytes, ticketPagePatch } from './list-patch';
import { ticketListScope, visibilityCondition } from './ticket-visibility';
import {
  clearUnread,
  companyBasics,
  connectionOfCompany,
  contactOfCompany,
  currentTracking,
  defaultConnection,
  deleteTicketRow,
  findActiveTicket,
  findTicketPlain,
  findTicketRow,
  findTicketRowByUuid,
  finishCurrentTracking,
  insertTicketIfNoneActive,
  insertTracking,
  mediaFilesOfTicket,
  queueOfCompany,
  type TTicketInsert,
  type TTicketRowRaw,
  updateTicketIf,
  touchLastAssigned,
  updateTracking,
  userOfCompany,
} from './tickets.repo';
import { isUniqueViolation } from '../../db/pg-errors';
import { ticketTrackings } from '../../db/schema/tickets';
import { markCycleReopened } from '../reports/metrics.repo';

/** who changes a ticket: a signed-in user (checked) or the system (pipeline, jobs, bot; unchecked) */
export type TTicketActor = TAuth | { system: true; companyId: number };
const isSystem = (actor: TTicketActor): actor is { system: true; companyId: number } => 'system' in actor;

/** extra fields only the system may set (bot state) */
export type TSystemTicketPatch = TUpdateTicketBody & {
  chatbot?: boolean;
  queueOptionId?: number | null;
  amountUsedBotQueues?: number;
  /** no automatic messages (greeting, transfer, rating, completion) */
  silent?: boolean;
};

/** ERR_OTHER_OPEN_TICKET naming the ticket that holds the contact, its user and queue */
export class OtherOpenTicketError extends AppError {
  readonly ticket: {
    id: number;
    uuid: string;
    status: string;
    userId: number | null;
    user: { id: number; name: string } | null;
    queue: { id: number; name: string } | null;
  };

  constructor(row: NonNullable<Awaited<ReturnType<typeof findActiveTicket>>>) {
    const t = row.ticket;
    const user = t.userId && row.userName ? { id: t.userId, name: row.userName } : null;
    const queue = t.queueId && row.queueName ? { id: t.queueId, name: row.queueName } : null;
    super('ERR_OTHER_OPEN_TICKET', 'An open ticket already exists for this contact', [
      { path: 'ticketId', message: String(t.id) },
      { path: 'user', message: user?.name ?? '' },
      { path: 'queue', message: queue?.name ?? '' },
    ]);
    this.ticket = { id: t.id, uuid: t.uuid, status: t.status, userId: t.userId, user, queue };
  }
}

// ---------------------------------------------------------------- list

/** the list's condition for a viewer and a query (its text is the statement's shape, its values the parameters) */
export const ticketListWhere = (
  viewer: TViewer,
  query: TTicketListQuery,
  opts: { timeZone: string; search?: TSearchCondition },
) => {
  const companyId = viewer.companyId;
  const params = new SqlParams();
  const c = listConditions(params, query.status);
  const conditions = [c.company(companyId), visibilityCondition(viewer, query, c)];
  if (query.status) conditions.push(c.status(query.status));
  if (query.users?.length) conditions.push(c.usersIn([...new Set(query.users)]));
  if (query.tags?.length) conditions.push(c.hasAllTags(companyId, [...new Set(query.tags)]));
  if (query.withUnreadMessages) conditions.push(c.withUnread());
  if (query.date) conditions.push(c.onDay('created_at', query.date, opts.timeZone));
  if (query.updatedAt) conditions.push(c.onDay('updated_at', query.updatedAt, opts.timeZone));
  if (query.searchParam) conditions.push(c.matches(companyId, opts.search ?? null));

  return { text: allOf(...conditions), params };
};

/**
 * A page of the list as the JSON bytes answered, kept (list-answers.ts) under the statement it runs (the
 * viewer's queues and user, every filter and the page are in its text and values) until an announced change
 * of a ticket its scope admits (ticket-visibility.ts `ticketListScope`), or an unsaid one of the company; a
 * change that only rewrote rows where they are patches a first page instead (list-patch.ts).
 */
export const listTickets = async (ctx: TAppContext, auth: TAuth, query: TTicketListQuery): Promise<Buffer> => {
  // the list is read far more often than users change: its viewer is kept a few seconds (forgotten on change)
  const viewer = await ctx.sessions.viewer(auth.companyId, auth.userId, () => loadViewer(ctx.db, auth));
  const where = ticketListWhere(viewer, query, {
    timeZone: auth.company.timezone || 'America/Sao_Paulo',
    search: query.searchParam ? await searchCondition(ctx.db, query.searchParam) : undefined,
  });
  const { limit, offset } = pageWindow(query.pageNumber, PAGE_SIZE.tickets);
  // a search is not counted (its count is a lower bound, `hasMore` is exact): only the open/pending badges,
  // which never search, show counts
  const uncounted = Boolean(query.searchParam);
  const statement = where.params.render(where.text);
  const key = `${limit} ${offset} ${uncounted} ${statement.text} ${JSON.stringify(statement.values)}`;

  const scope = ticketListScope(viewer, query);
  const patch = ticketPagePatch(ctx.db, viewer.companyId, query, scope, limit);

  return ctx.listAnswers.answer(
    viewer.companyId,
    key,
    async () => {
      const { tickets: rows, total } = await pageTicketList(ctx.db, where, limit, offset, { uncounted });
      const page = pageAnswer(rows, total, query.pageNumber, PAGE_SIZE.tickets);

      const answer = { tickets: page.rows, count: page.count, hasMore: page.hasMore };

      return patch ? pageBytes(answer) : Buffer.from(JSON.stringify(answer));
    },
    scope,
    patch,
  );
};

// ---------------------------------------------------------------- show

const showRow = async (ctx: TAppContext, auth: TAuth, row: Awaited<ReturnType<typeof findTicketRow>>) => {
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
  assertCanSee(await loadViewer(ctx.db, auth), row.ticket);

  return toTickets([row])[0];
};

export const showTicket = async (ctx: TAppContext, auth: TAuth, id: number) =>
  showRow(ctx, auth, await findTicketRow(ctx.db, auth.companyId, id));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const showTicketByUuid = async (ctx: TAppContext, auth: TAuth, uuid: string) => {
  if (!UUID.test(uuid)) throw new AppError('ERR_NO_TICKET_FOUND');

  return showRow(ctx, auth, await findTicketRowByUuid(ctx.db, auth.companyId, uuid.toLowerCase()));
};

// ---------------------------------------------------------------- read marking

/**
 * Zeroes the unread count, flags the inbound messages read and emits `updateUnread`. Read receipts go
 * to the channel only when `receipts` (an attendant actually reads an open ticket).
 */
export const markTicketRead = async (
  ctx: TAppContext,
  companyId: number,
  ticketId: number,
  opts: { receipts: boolean },
) => {
  const ticket = await findTicketPlain(ctx.db, companyId, ticketId);
  if (!ticket) return;
  const unread = await unreadInbound(ctx.db, companyId, ticketId);
  if (unread.length === 0 && ticket.unreadMessages === 0) return;
  await markRead(
    ctx.db,
    companyId,
    unread.map((m) => m.id),
  );
  await clearUnread(ctx.db, companyId, ticketId);
  await announceUnread(ctx, companyId, ticketId);
  const externalIds = unread.map((m) => m.externalId).filter((x): x is string => !!x);
  if (opts.receipts && ticket.status === 'open' && externalIds.length) {
    try {
      const contact = await contactOfCompany(ctx.db, companyId, ticket.contactId);
      if (contact)
        await channelSession(ctx, ticket.whatsappId).markRead(contact.number, externalIds, { isGroup: ticket.isGroup });
    } catch (err) {
      ctx.log.debug({ err, ticketId }, 'read receipts not sent');
    }
  }
};

// ---------------------------------------------------------------- create

export const createTicket = async (ctx: TAppContext, auth: TAuth, body: TCreateTicketBody) => {
  const companyId = auth.companyId;
  const viewer = await loadViewer(ctx.db, auth);
  const contact = await contactOfCompany(ctx.db, companyId, body.contactId);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  if (body.queueId) {
    if (!(await queueOfCompany(ctx.db, companyId, body.queueId))) {
      throw new AppError('ERR_VALIDATION', 'Unknown queue', [{ path: 'queueId', message: 'invalid' }]);
    }
    if (!viewer.isAdmin && !viewer.queueIds.includes(body.queueId)) throw new AppError('ERR_NO_PERMISSION');
  } else if (!viewer.isAdmin) {
    throw new AppError('ERR_VALIDATION', 'Select a queue', [{ path: 'queueId', message: 'required' }]);
  }
  let connectionId = body.whatsappId ?? null;
  if (connectionId) {
    if (!(await connectionOfCompany(ctx.db, companyId, connectionId))) throw new AppError('ERR_NO_WAPP_FOUND');
  } else if (viewer.whatsappId && (await connectionOfCompany(ctx.db, companyId, viewer.whatsappId))) {
    connectionId = viewer.whatsappId;
  } else {
    const fallback = await defaultConnection(ctx.db, companyId);
    if (!fallback) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    connectionId = fallback.id;
  }
  // only admins open a ticket in somebody else's name
  const userId = viewer.isAdmin && body.userId ? body.userId : viewer.userId;
  if (userId !== viewer.userId && !(await userOfCompany(ctx.db, companyId, userId))) {
    throw new AppError('ERR_NO_USER_FOUND');
  }

  const existingAnswer = async () => {
    const active = await findActiveTicket(ctx.db, companyId, connectionId, contact.id);
    if (!active) return null;
    if (active.ticket.userId === viewer.userId && active.ticket.status === 'open') {
      return { created: false, ticket: toTickets([active])[0] };
    }
    throw new OtherOpenTicketError(active);
  };
  const held = await existingAnswer();
  if (held) return held;

  const company = await companyBasics(ctx.db, companyId);
  const now = new Date();
  const id = await ctx.db.transaction(async (tx) => {
    const row = await insertTicketIfNoneActive(tx, {
      companyId,
      contactId: contact.id,
      whatsappId: connectionId,
      queueId: body.queueId ?? null,
      userId,
      status: 'open',
      isGroup: contact.isGroup,
      code: newTicketCode(company?.timezone ?? 'America/Sao_Paulo'),
    });
    if (!row) return null;
    await insertTracking(tx, {
      companyId,
      ticketId: row.id,
      whatsappId: connectionId,
      queueId: row.queueId,
      userId,
      queuedAt: now,
      startedAt: now,
    });
    await touchLastAssigned(tx, companyId, userId, now);

    return row.id;
  });
  if (id === null) {
    // made concurrently by somebody else
    const again = await existingAnswer();
    if (again) return again;
    throw new AppError('ERR_CREATING_TICKET');
  }
  const ticket = await announceTicket(ctx, companyId, id);

  return { created: true, ticket: ticket! };
};

// ---------------------------------------------------------------- update (spec 1 §4 transitions)

type TKind = 'accept' | 'return' | 'close' | 'reopen' | 'transfer' | 'edit';

const fail = (kind: TKind) =>
  kind === 'accept'
    ? new AppError('ERR_TICKET_ALREADY_ACCEPTED', 'Another attendant accepted this ticket first')
    : new AppError('ERR_CONFLICT', 'The ticket changed meanwhile, reload it');

/**
 * Every ticket transition of spec 1 §4 and reference §2.8: accept (pending → open, exactly one of two
 * concurrent accepts wins), return (open → pending, no user), close (rating request or completion
 * message), reopen (closed → open, ERR_OTHER_OPEN_TICKET when another active ticket exists), transfer to a
 * queue (pending, no user) or to a user. Users are checked against the permission rules; the system is not.
 */
export const updateTicket = async (
  ctx: TAppContext,
  actor: TTicketActor,
  ticketId: number,
  body: TSystemTicketPatch,
) => {
  const companyId = actor.companyId;
  const system = isSystem(actor);
  const viewer = system ? null : await loadViewer(ctx.db, actor);
  const current = await findTicketPlain(ctx.db, companyId, ticketId);
  if (!current) throw new AppError('ERR_NO_TICKET_FOUND');
  if (viewer) assertCanSee(viewer, current);
  if (system) {
    // bot state is the system's alone
  } else if (body.chatbot !== undefined || body.queueOptionId !== undefined || body.amountUsedBotQueues !== undefined) {
    throw new AppError('ERR_NO_PERMISSION');
  }

  const status = body.status ?? current.status;
  const queueChanged = body.queueId !== undefined && body.queueId !== current.queueId;
  const userGiven = body.userId !== undefined;
  let kind: TKind;
  let userId = userGiven ? (body.userId ?? null) : current.userId;
  let nextStatus = status;
  if (current.status === 'pending' && status === 'open') {
    kind = 'accept';
    userId = body.userId ?? viewer?.userId ?? current.userId;
  } else if (current.status === 'open' && status === 'pending') {
    kind = 'return';
    userId = userGiven ? (body.userId ?? null) : null;
  } else if (current.status !== 'closed' && status === 'closed') {
    kind = 'close';
    userId = current.userId ?? viewer?.userId ?? null;
  } else if (current.status === 'closed' && status !== 'closed') {
    kind = 'reopen';
    userId =
      status === 'open' ? (body.userId ?? viewer?.userId ?? current.userId) : userGiven ? (body.userId ?? null) : null;
  } else if (queueChanged || (userGiven && body.userId !== current.userId)) {
    kind = 'transfer';
    // a queue without a user: back to pending with nobody
    if (queueChanged && (!userGiven || body.userId === null) && current.status !== 'closed') {
      nextStatus = 'pending';
      userId = null;
    }
  } else {
    kind = 'edit';
    // an accept that lost the race: the ticket is already open with somebody else
    if (body.status === 'open' && current.status === 'open' && !userGiven && current.userId !== viewer?.userId) {
      throw fail('accept');
    }
  }
  if (nextStatus === 'open' && !userId)
    throw new AppError('ERR_VALIDATION', 'An open ticket needs a user', [{ path: 'userId', message: 'required' }]);

  // permissions
  if (viewer && !viewer.isAdmin) {
    const holds = current.userId === viewer.userId;
    const deny = () => {
      throw new AppError('ERR_NO_PERMISSION');
    };
    if ((kind === 'accept' || (kind === 'reopen' && nextStatus === 'open')) && userId !== viewer.userId) deny();
    if (kind === 'return' && !holds) deny();
    if (kind === 'close' && current.status === 'open' && !holds) deny();
    if (kind === 'transfer' && current.status === 'open' && !holds) deny();
    if (kind === 'edit' && current.status === 'open' && !holds) deny();
    if (body.whatsappId !== undefined && body.whatsappId !== current.whatsappId) deny();
  }

  // references
  const queueId = body.queueId !== undefined ? body.queueId : current.queueId;
  const queue = queueId ? await queueOfCompany(ctx.db, companyId, queueId) : null;
  if (queueId && !queue)
    throw new AppError('ERR_VALIDATION', 'Unknown queue', [{ path: 'queueId', message: 'invalid' }]);
  const user = userId ? await userOfCompany(ctx.db, companyId, userId) : null;
  if (userId && !user) throw new AppError('ERR_NO_USER_FOUND');
  const whatsappId = body.whatsappId !== undefined ? body.whatsappId : current.whatsappId;
  if (whatsappId && whatsappId !== current.whatsappId && !(await connectionOfCompany(ctx.db, companyId, whatsappId))) {
    throw new AppError('ERR_NO_WAPP_FOUND');
  }
  const becomesActive = nextStatus !== 'closed' && (current.status === 'closed' || whatsappId !== current.whatsappId);
  if (becomesActive && whatsappId) {
    const other = await findActiveTicket(ctx.db, companyId, whatsappId, current.contactId);
    if (other && other.ticket.id !== current.id) throw new OtherOpenTicketError(other);
  }

  const settings = async () => ({
    userRating: (await readSetting(ctx.db, companyId, 'userRating')) === 'enabled',
    sendMsgTransfTicket: (await readSetting(ctx.db, companyId, 'sendMsgTransfTicket')) === 'enabled',
    sendGreetingAccepted: (await readSetting(ctx.db, companyId, 'sendGreetingAccepted')) === 'enabled',
  });
  const flags = await settings();
  const now = new Date();
  const patch: Partial<TTicketInsert> = {
    status: nextStatus,
    userId,
    queueId,
    whatsappId,
    // any change by a person ends the bot's conversation
    chatbot: body.chatbot ?? false,
    ...(body.queueOptionId !== undefined
      ? { queueOptionId: body.queueOptionId }
      : system
        ? {}
        : { queueOptionId: null }),
    ...(body.amountUsedBotQueues !== undefined ? { amountUsedBotQueues: body.amountUsedBotQueues } : {}),
    ...(body.useIntegration !== undefined ? { useIntegration: body.useIntegration } : {}),
    ...(body.promptId !== undefined ? { promptId: body.promptId } : {}),
    ...(body.integrationId !== undefined ? { integrationId: body.integrationId } : {}),
  };
  if (kind === 'close') {
    Object.assign(patch, {
      closedAt: now,
      useIntegration: false,
      promptId: null,
      integrationId: null,
      chatbot: false,
      queueOptionId: null,
      typebotStatus: false,
      typebotSessionId: null,
    });
  }
  if (kind === 'reopen') Object.assign(patch, { closedAt: null, unreadMessages: 0 });

  let askRating = false;
  let updated: TTicketRowRaw | null;
  try {
    updated = await ctx.db.transaction(async (tx) => {
      const row = await updateTicketIf(
        tx,
        companyId,
        ticketId,
        { status: current.status, userId: current.userId },
        patch,
      );
      if (!row) return null;
      // flows run only while no attendant holds the ticket: an accept (or a close) by a person ends the run
      if (!system && (userId || kind === 'close') && row.flowWebhook) {
        await endActiveRuns(tx, companyId, ticketId, kind === 'close' ? 'closed' : 'accepted');
        await updateTicketIf(
          tx,
          companyId,
          ticketId,
          { status: row.status, userId: row.userId },
          { flowWebhook: false },
        );
      }
      let tracking = await currentTracking(tx, companyId, ticketId);
      if (kind === 'reopen') {
        await finishCurrentTracking(tx, companyId, ticketId);
        await markCycleReopened(tx, companyId, ticketId, now);
        tracking = await insertTracking(tx, {
          companyId,
          ticketId,
          whatsappId,
          queueId,
          userId,
          queuedAt: now,
          startedAt: nextStatus === 'open' ? now : null,
        });
      } else if (!tracking) {
        tracking = await insertTracking(tx, { companyId, ticketId, whatsappId, queueId, userId, queuedAt: now });
      }
      const t: Parameters<typeof updateTracking>[3] = { whatsappId, queueId };
      if (queueChanged && queueId) t.queuedAt = now;
      if (body.chatbot) t.chatbotAt = now;
      if (kind === 'accept') Object.assign(t, { startedAt: now, userId, ratingAt: null, rated: false });
      if (nextStatus === 'pending' && current.status === 'open')
        Object.assign(t, { queuedAt: now, startedAt: null, userId: null });
      if (kind === 'transfer' && nextStatus === 'open') t.userId = userId;
      // attendance metrics: transfers, and the first moment a person acted (an accept, or a user's transition)
      // (a move to another queue with the status "pending" is classed a return above, and is a transfer too)
      const moved = queueChanged || (userId !== null && userId !== current.userId);
      if ((kind === 'transfer' || kind === 'return') && moved) t.transfers = sql`${ticketTrackings.transfers} + 1`;
      if (kind === 'accept' || (!system && kind !== 'edit'))
        t.humanAt = sql`coalesce(${ticketTrackings.humanAt}, ${now.toISOString()}::timestamptz)`;
      if (kind === 'close') {
        askRating = flags.userRating && !current.isGroup && !!userId && !tracking.ratingAt && !body.silent;
        if (askRating) Object.assign(t, { ratingAt: now, userId });
        else Object.assign(t, { finishedAt: now, userId });
      }
      await updateTracking(tx, companyId, tracking.id, t);
      if (userId && userId !== current.userId && nextStatus !== 'closed') {
        await touchLastAssigned(tx, companyId, userId, now);
      }

      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err) && whatsappId) {
      const other = await findActiveTicket(ctx.db, companyId, whatsappId, current.contactId);
      if (other && other.ticket.id !== current.id) throw new OtherOpenTicketError(other);
      throw fail(kind);
    }
    throw err;
  }
  if (!updated) throw fail(kind);

  if (kind === 'accept' || (kind === 'reopen' && nextStatus === 'open')) {
    await markTicketRead(ctx, companyId, ticketId, { receipts: !system });
  }
  const previous: TTicketPlace = { status: current.status, queueId: current.queueId, userId: current.userId };
  const ticket = await announceTicket(ctx, companyId, ticketId, previous);
  if (!body.silent) {
    const names = { queueName: queue?.name, userName: user?.name };
    await automaticMessages(ctx, { companyId, current, updated, kind, flags, askRating, ...names });
  }

  return ticket ?? (await loadTicketDto(ctx.db, companyId, ticketId))!;
};

/** greeting on accept, transfer notices, rating request or completion message; failures never undo the change */
const automaticMessages = async (
  ctx: TAppContext,
  o: {
    companyId: number;
    current: TTicketRowRaw;
    updated: TTicketRowRaw;
    kind: TKind;
    flags: { userRating: boolean; sendMsgTransfTicket: boolean; sendGreetingAccepted: boolean };
    askRating: boolean;
    queueName?: string;
    userName?: string;
  },
) => {
  const { companyId, current, updated, kind } = o;
  const texts: string[] = [];
  const company = await companyBasics(ctx.db, companyId);
  const language = company?.language;
  let greeting: string | null = null;
  if (kind === 'accept' && o.flags.sendGreetingAccepted && !updated.isGroup && o.userName) {
    greeting = acceptGreeting(language, o.userName);
    texts.push(greeting);
  }
  if ((kind === 'transfer' || kind === 'return') && o.flags.sendMsgTransfTicket && !updated.isGroup) {
    const queueMoved = updated.queueId !== current.queueId && !!updated.queueId;
    const userMoved = updated.userId !== current.userId && !!updated.userId;
    if (queueMoved || userMoved) {
      texts.push(
        transferText(language, {
          queueName: queueMoved ? o.queueName : null,
          userName: userMoved ? o.userName : null,
        }),
      );
    }
  }
  if (kind === 'close' && !updated.isGroup && updated.whatsappId) {
    const connection = await connectionOfCompany(ctx.db, companyId, updated.whatsappId);
    if (o.askRating) texts.push(ratingRequest(language, connection?.ratingMessage ?? ''));
    else if (connection?.complationMessage.trim()) texts.push(connection.complationMessage);
  }
  for (const body of texts) {
    try {
      // the greeting carries a client id a client's own greeting for this accept is answered with (one greeting)
      const clientId = body === greeting ? acceptGreetingClientId(updated.id) : null;
      await sendTicketText(ctx, { companyId, ticketId: updated.id, body, source: 'system', clientId });
    } catch (err) {
      ctx.log.warn({ err, ticketId: updated.id }, 'automatic message not sent');
    }
  }
};

// ---------------------------------------------------------------- delete

export const deleteTicket = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const ticket = await findTicketPlain(ctx.db, auth.companyId, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  const files = await mediaFilesOfTicket(ctx.db, auth.companyId, id);
  await deleteTicketRow(ctx.db, auth.companyId, id);
  announceTicketDeleted(ctx, auth.companyId, ticket);
  for (const name of files) await removeMediaFile(ctx.config, name);
};
