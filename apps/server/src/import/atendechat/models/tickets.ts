/**
 * Tickets (uuid, status, queue, user, connection, unread count, chatbot state), their tags, notes, tracking
 * rows and ratings. Rules: a ticket of no imported company or contact is skipped (Zelo needs both); one of a
 * duplicate contact goes to the kept contact; a user, queue or connection not imported (or of another
 * company) is dropped from it; a second open or pending ticket of one contact on one connection is imported
 * closed (Zelo keeps one active); a missing or repeated uuid gets a new one.
 */
import { randomUUID } from 'node:crypto';
import { ticketNotes, ticketTags, ticketTrackings, tickets, userRatings } from '../../../db/schema/tickets';
import { bool, cut, date, idOrNull, int, json } from '../clean';
import { insertRows } from '../insert';
import { idsOf, ownersOf, type TImportState, type TModel, takenOf } from '../model';
import { restoreOwned, rowsOf } from './_restore';
import { ownId } from './automation';
import { resolveContactAliases, stamps } from './contacts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUSES = new Set(['open', 'pending', 'closed']);

/** a contact id as imported: itself, the kept contact of a duplicate, or null */
export const importedContact = (state: TImportState, id: number | null) => {
  if (id === null) return null;
  if (idsOf(state, 'contacts').has(id)) return id;
  const alias = state.contactAlias.get(id);

  return alias !== undefined && alias > 0 ? alias : null;
};

const ownUser = (state: TImportState, id: unknown, companyId: number) => {
  const n = idOrNull(id);

  return n !== null && ownersOf(state, 'users').get(n) === companyId ? n : null;
};

type TTicket = typeof tickets.$inferInsert;
export const ticketsModel: TModel<TTicket> = {
  name: 'tickets',
  table: 'Tickets',
  key: ['id'],
  required: ['id', 'status', 'contactId', 'companyId'],
  optional: [
    'lastMessage',
    'userId',
    'createdAt',
    'updatedAt',
    'whatsappId',
    'isGroup',
    'unreadMessages',
    'queueId',
    'uuid',
    'chatbot',
    'queueOptionId',
    'amountUsedBotQueues',
    'fromMe',
    'integrationId',
    'useIntegration',
    'typebotSessionId',
    'typebotStatus',
    'promptId',
    'flowWebhook',
    'lastFlowId',
    'hashFlowId',
    'flowStopped',
    'dataWebhook',
  ],
  batch: 2000,
  prepare: resolveContactAliases,
  restore: async (db, state) => {
    for (const r of await rowsOf<{ id: number; c: number; w: number | null; k: number; s: string; u: string }>(
      db,
      'select id, company_id as c, whatsapp_id as w, contact_id as k, status as s, uuid::text as u from tickets',
    )) {
      state.tickets.set(Number(r.id), { companyId: Number(r.c), whatsappId: r.w, contactId: Number(r.k) });
      takenOf(state, 'uuid').add(r.u);
      if (r.s !== 'closed') state.activeTickets.add(`${r.c}:${r.w}:${r.k}`);
    }
  },
  map: (r, { state }) => {
    const companyId = idOrNull(r.companyId);
    if (companyId === null || !idsOf(state, 'companies').has(companyId))
      return { skip: 'ticket of no imported company' };
    const sourceContact = idOrNull(r.contactId);
    const contactId = importedContact(state, sourceContact);
    if (contactId === null || ownersOf(state, 'contacts').get(contactId) !== companyId) {
      return { skip: 'ticket of a deleted or not imported contact' };
    }
    const adjusted: string[] = [];
    if (contactId !== sourceContact) adjusted.push('moved to the kept contact of a duplicate number');
    const id = idOrNull(r.id)!;
    let uuid = String(r.uuid ?? '');
    const uuids = takenOf(state, 'uuid');
    if (!UUID.test(uuid) || uuids.has(uuid.toLowerCase())) {
      uuid = randomUUID();
      adjusted.push('uuid missing or repeated: a new one');
    }
    uuid = uuid.toLowerCase();
    uuids.add(uuid);
    let status = String(r.status ?? '').toLowerCase();
    if (!STATUSES.has(status)) {
      adjusted.push(`status "${cut(r.status, 20)}" read as closed`);
      status = 'closed';
    }
    const whatsappId = ownId(state, 'connections', r.whatsappId, companyId);
    if (idOrNull(r.whatsappId) !== null && whatsappId === null) adjusted.push('connection not imported: dropped');
    const userId = ownUser(state, r.userId, companyId);
    if (idOrNull(r.userId) !== null && userId === null) adjusted.push('user deleted or not imported: dropped');
    const queueId = ownId(state, 'queues', r.queueId, companyId);
    if (idOrNull(r.queueId) !== null && queueId === null) adjusted.push('queue not imported: dropped');
    const active = `${companyId}:${whatsappId}:${contactId}`;
    if (status !== 'closed') {
      if (state.activeTickets.has(active)) {
        status = 'closed';
        adjusted.push('second active ticket of a contact on a connection: imported closed');
      } else state.activeTickets.add(active);
    }
    let queueOptionId = idOrNull(r.queueOptionId);
    if (queueOptionId !== null && !idsOf(state, 'queue options').has(queueOptionId)) queueOptionId = null;
    const integrationId = ownId(state, 'queue integrations', r.integrationId, companyId);
    // the ancestor keeps the flow a ticket is parked in as text
    const flowStopped = ownId(state, 'flows', r.flowStopped, companyId);
    const data = json(r.dataWebhook);
    const updatedAt = date(r.updatedAt, new Date())!;
    state.tickets.set(id, { companyId, whatsappId, contactId });

    return {
      adjusted,
      row: {
        id,
        companyId,
        uuid,
        status,
        unreadMessages: int(r.unreadMessages, 0),
        lastMessage: cut(r.lastMessage, 100_000),
        lastMessageAt: r.lastMessage ? updatedAt : null,
        isGroup: bool(r.isGroup, false),
        contactId,
        whatsappId,
        userId,
        queueId,
        closedAt: status === 'closed' ? updatedAt : null,
        fromMe: bool(r.fromMe, false),
        chatbot: bool(r.chatbot, false),
        queueOptionId,
        amountUsedBotQueues: int(r.amountUsedBotQueues, 0),
        useIntegration: bool(r.useIntegration, false) && integrationId !== null,
        integrationId,
        promptId: ownId(state, 'prompts', r.promptId, companyId),
        typebotSessionId: cut(r.typebotSessionId, 128) || null,
        typebotStatus: bool(r.typebotStatus, false),
        flowWebhook: bool(r.flowWebhook, false) && flowStopped !== null,
        flowStopped,
        lastFlowId: cut(r.lastFlowId, 64) || null,
        hashFlowId: cut(r.hashFlowId, 64) || null,
        dataWebhook: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {},
        createdAt: date(r.createdAt, updatedAt) ?? undefined,
        updatedAt,
      },
    };
  },
  write: async (tx, rows) => {
    // the list search's words are built once the messages are in (messages.ts, ticketWordsModel)
    await insertRows(tx, tickets, rows);
    return undefined;
  },
};

type TTicketTag = typeof ticketTags.$inferInsert;
export const ticketTagsModel: TModel<TTicketTag> = {
  name: 'ticket tags',
  table: 'TicketTags',
  key: ['ticketId', 'tagId'],
  required: ['ticketId', 'tagId'],
  optional: ['createdAt', 'updatedAt'],
  batch: 2000,
  map: (r, { state }) => {
    const ticket = state.tickets.get(idOrNull(r.ticketId) ?? 0);
    const tagId = idOrNull(r.tagId);
    if (!ticket || tagId === null || ownersOf(state, 'tags').get(tagId) !== ticket.companyId) {
      return { skip: 'ticket or tag not imported' };
    }

    return { row: { companyId: ticket.companyId, ticketId: idOrNull(r.ticketId)!, tagId, ...stamps(r) } };
  },
  write: async (tx, rows) => {
    await insertRows(tx, ticketTags, rows);
    return undefined;
  },
};

type TNote = typeof ticketNotes.$inferInsert;
export const ticketNotesModel: TModel<TNote> = {
  name: 'ticket notes',
  table: 'TicketNotes',
  key: ['id'],
  required: ['id', 'note', 'contactId', 'ticketId'],
  optional: ['userId', 'createdAt', 'updatedAt'],
  map: (r, { state }) => {
    const ticketId = idOrNull(r.ticketId);
    const ticket = state.tickets.get(ticketId ?? 0);
    if (!ticket) return { skip: 'note of no imported ticket' };

    return {
      row: {
        id: idOrNull(r.id)!,
        companyId: ticket.companyId,
        ticketId: ticketId!,
        contactId: ticket.contactId,
        userId: ownUser(state, r.userId, ticket.companyId),
        note: cut(r.note, 100_000),
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, ticketNotes, rows);
    return undefined;
  },
};

type TTracking = typeof ticketTrackings.$inferInsert;
export const trackingsModel: TModel<TTracking> = {
  name: 'ticket tracking',
  table: 'TicketTraking',
  key: ['id'],
  required: ['id', 'ticketId'],
  optional: [
    'companyId',
    'whatsappId',
    'userId',
    'createdAt',
    'updatedAt',
    'queuedAt',
    'startedAt',
    'finishedAt',
    'ratingAt',
    'rated',
    'chatbotAt',
  ],
  batch: 2000,
  restore: async (db, state) => {
    await restoreOwned('ticket tracking', 'ticket_trackings')(db, state);
    for (const r of await rowsOf<{ t: number }>(
      db,
      'select ticket_id as t from ticket_trackings where finished_at is null',
    )) {
      takenOf(state, 'current tracking').add(String(r.t));
    }
  },
  map: (r, { state }) => {
    const ticketId = idOrNull(r.ticketId);
    const ticket = state.tickets.get(ticketId ?? 0);
    if (!ticket) return { skip: 'tracking of no imported ticket' };
    const adjusted: string[] = [];
    const createdAt = date(r.createdAt, new Date())!;
    let finishedAt = date(r.finishedAt, null);
    // Zelo keeps one unfinished cycle per ticket: an older unfinished one is closed at its last update
    const current = takenOf(state, 'current tracking');
    if (!finishedAt) {
      if (current.has(String(ticketId))) {
        finishedAt = date(r.updatedAt, createdAt);
        adjusted.push('second unfinished cycle of a ticket: finished at its last update');
      } else current.add(String(ticketId));
    }
    const id = idOrNull(r.id)!;
    idsOf(state, 'ticket tracking').add(id);
    ownersOf(state, 'ticket tracking').set(id, ticket.companyId);

    return {
      adjusted,
      row: {
        id,
        companyId: ticket.companyId,
        ticketId: ticketId!,
        whatsappId: ownId(state, 'connections', r.whatsappId, ticket.companyId),
        userId: ownUser(state, r.userId, ticket.companyId),
        queueId: null,
        queuedAt: date(r.queuedAt, null),
        startedAt: date(r.startedAt, null),
        finishedAt,
        ratingAt: date(r.ratingAt, null),
        chatbotAt: date(r.chatbotAt, null),
        rated: bool(r.rated, false),
        // the history's attendance metrics are read from its messages by the server's backfill job
        metricsBackfill: true,
        createdAt,
        updatedAt: date(r.updatedAt, createdAt) ?? undefined,
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, ticketTrackings, rows);
    return undefined;
  },
};

type TRating = typeof userRatings.$inferInsert;
export const ratingsModel: TModel<TRating> = {
  name: 'ratings',
  table: 'UserRatings',
  key: ['id'],
  required: ['id', 'ticketId', 'rate'],
  optional: ['companyId', 'userId', 'createdAt', 'updatedAt'],
  map: (r, { state }) => {
    const ticketId = idOrNull(r.ticketId);
    const ticket = state.tickets.get(ticketId ?? 0);
    if (!ticket) return { skip: 'rating of no imported ticket' };
    const rate = int(r.rate, -1);
    if (rate < 1 || rate > 3) return { skip: 'rate outside 1..3' };

    return {
      row: {
        id: idOrNull(r.id)!,
        companyId: ticket.companyId,
        ticketId: ticketId!,
        userId: ownUser(state, r.userId, ticket.companyId),
        rate,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, userRatings, rows);
    return undefined;
  },
};
