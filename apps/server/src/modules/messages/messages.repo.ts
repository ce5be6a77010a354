import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TDbOrTx } from '../../db/client';
import { preparedQuery } from '../../db/prepared';
import { whatsapps } from '../../db/schema/connections';
import { contacts } from '../../db/schema/contacts';
import { messages } from '../../db/schema/messages';
import { tickets } from '../../db/schema/tickets';
import {
  appendWordsCtes,
  indexedText,
  rebuildContactTicketsWords,
  rebuildTicketWords,
} from '../tickets/ticket-search.repo';
import { queryRows } from '../../db/statements';
import { updateRows } from '../../db/update-rows';

export type TMessageRow = typeof messages.$inferSelect;
export type TMessageInsert = typeof messages.$inferInsert;

const quoted = alias(messages, 'quoted');
const quotedContact = alias(contacts, 'quoted_contact');

const messageColumns = {
  message: messages,
  contactName: contacts.name,
  quotedId: quoted.id,
  quotedBody: quoted.body,
  quotedFromMe: quoted.fromMe,
  quotedMediaType: quoted.mediaType,
  quotedIsDeleted: quoted.isDeleted,
  quotedContactName: quotedContact.name,
};

const selectMessages = (db: TDbOrTx) =>
  db
    .select(messageColumns)
    .from(messages)
    .leftJoin(contacts, eq(contacts.id, messages.contactId))
    .leftJoin(quoted, eq(quoted.id, messages.quotedMsgId))
    .leftJoin(quotedContact, eq(quotedContact.id, quoted.contactId));

export type TMessageJoinedRow = Awaited<ReturnType<ReturnType<typeof selectMessages>['execute']>>[number];

export const findMessageRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (await selectMessages(db).where(and(eq(messages.companyId, companyId), eq(messages.id, id))))[0] ?? null;

export const findMessagePlain = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select()
      .from(messages)
      .where(and(eq(messages.companyId, companyId), eq(messages.id, id)))
  )[0] ?? null;

export const findByExternalId = async (db: TDbOrTx, whatsappId: number, externalId: string) =>
  (
    await db
      .select()
      .from(messages)
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.externalId, externalId)))
  )[0] ?? null;

export const findByClientId = async (db: TDbOrTx, companyId: number, clientId: string) =>
  (
    await db
      .select()
      .from(messages)
      .where(and(eq(messages.companyId, companyId), eq(messages.clientId, clientId)))
  )[0] ?? null;

/** the company's messages stored under any of these client ids, by client id (a batch of sends) */
export const messagesByClientIds = async (db: TDbOrTx, companyId: number, clientIds: string[]) => {
  const map = new Map<string, TMessageRow>();
  if (clientIds.length === 0) return map;
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.companyId, companyId), inArray(messages.clientId, clientIds)));
  for (const row of rows) map.set(row.clientId!, row);

  return map;
};

/** inserts once per (connection, external id) and per (company, client id); null when it already exists */
/** the insert of each set of columns given (a few, fixed by the callers), built and prepared once */
const insertShapes = new Map<string, ReturnType<typeof insertOfShape>>();
const INSERT_SHAPES_KEPT = 32;
const insertOfShape = (columns: string[]) =>
  preparedQuery(
    (db, name) =>
      db
        .insert(messages)
        .values(Object.fromEntries(columns.map((c) => [c, sql.placeholder(c)])) as unknown as TMessageInsert)
        .onConflictDoNothing()
        .returning()
        .prepare(name),
    `message_insert_${createHash('sha1').update(columns.join(',')).digest('hex').slice(0, 16)}`,
  );

/**
 * stores a message unless its (connection, external id) or client id is stored already (then null): a prepared
 * statement per set of columns given (the columns left out take their defaults, as an insert built per call gave)
 */
export const insertMessageOnce = async (db: TDbOrTx, values: TMessageInsert) => {
  const columns = Object.keys(values)
    .filter((c) => values[c as keyof TMessageInsert] !== undefined)
    .sort();
  const shape = columns.join(',');
  let insert = insertShapes.get(shape);
  if (!insert) {
    if (insertShapes.size >= INSERT_SHAPES_KEPT)
      return (await db.insert(messages).values(values).onConflictDoNothing().returning())[0] ?? null;
    insert = insertOfShape(columns);
    insertShapes.set(shape, insert);
  }

  return (await insert(db).execute(values as Record<string, unknown>))[0] ?? null;
};

/** changes a message; an edit or a delete also recomputes its ticket's search words */
export const updateMessageRow = async (db: TDbOrTx, companyId: number, id: number, patch: Partial<TMessageInsert>) => {
  const [row] = await updateRows(db, messages, and(eq(messages.companyId, companyId), eq(messages.id, id)), patch);
  if (row && (patch.body !== undefined || patch.isDeleted !== undefined)) {
    await rebuildTicketWords(db, companyId, row.ticketId);
  }

  return row ?? null;
};

/** raises the acknowledgement; never lowers it */
export const raiseAck = async (db: TDbOrTx, whatsappId: number, externalId: string, ack: number) =>
  (
    await db
      .update(messages)
      .set({ ack })
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.externalId, externalId), lt(messages.ack, ack)))
      .returning({ id: messages.id, companyId: messages.companyId })
  )[0] ?? null;

/** a send failure reported later by the channel: only a message not yet past "pending" turns failed */
export const markFailedByExternalId = async (
  db: TDbOrTx,
  whatsappId: number,
  externalId: string,
  error: { code: string; message: string },
) =>
  (
    await db
      .update(messages)
      .set({ ack: 0, errorCode: error.code.slice(0, 64), errorMessage: error.message })
      .where(and(eq(messages.whatsappId, whatsappId), eq(messages.externalId, externalId), sql`${messages.ack} <= 1`))
      .returning({ id: messages.id, companyId: messages.companyId })
  )[0] ?? null;

/**
 * Our own send echoed back by the channel before the send call returned: the stored outbound row of that
 * ticket with the same body and no external id yet, sent in the last two minutes.
 */
export const claimPendingOutbound = async (
  db: TDbOrTx,
  companyId: number,
  ticketId: number,
  body: string,
  externalId: string,
) => {
  const candidate = sql`(select ${messages.id} from ${messages} where ${messages.companyId} = ${companyId} and ${messages.ticketId} = ${ticketId} and ${messages.fromMe} and ${messages.externalId} is null and ${messages.body} = ${body} and ${messages.createdAt} > now() - interval '2 minutes' order by ${messages.id} limit 1)`;

  return (
    (
      await db
        .update(messages)
        .set({ externalId })
        .where(and(sql`${messages.id} = ${candidate}`, isNull(messages.externalId)))
        .returning()
    )[0] ?? null
  );
};

/** inbound messages not read yet, with their external ids (read receipts) */
export const unreadInbound = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  db
    .select({ id: messages.id, externalId: messages.externalId })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.ticketId, ticketId),
        eq(messages.fromMe, false),
        eq(messages.read, false),
      ),
    );

export const markRead = async (db: TDbOrTx, companyId: number, ids: number[]) => {
  if (ids.length === 0) return;
  await db
    .update(messages)
    .set({ read: true })
    .where(and(eq(messages.companyId, companyId), inArray(messages.id, ids)));
};

export const connectionById = async (db: TDbOrTx, id: number) =>
  (
    await db
      .select({ id: whatsapps.id, companyId: whatsapps.companyId, complationMessage: whatsapps.complationMessage })
      .from(whatsapps)
      .where(eq(whatsapps.id, id))
  )[0] ?? null;

/**
 * after a stored message, in one statement: last message, unread count and order of the ticket, and its search
 * words (appendWordsCtes)
 */
const TOUCH_TICKET_SQL = `
with ${appendWordsCtes(1, 2, 3)}
update tickets set last_message = $4, last_message_at = $5::timestamptz, from_me = $6,
  unread_messages = case $7::text when 'increment' then unread_messages + 1 when 'reset' then 0 else unread_messages end,
  sla_first_response_at = case when $8::boolean then coalesce(sla_first_response_at, $5::timestamptz)
    else sla_first_response_at end,
  sla_first_response_met = case when $8::boolean and sla_first_response_at is null
      and sla_first_response_due_at is not null and sla_first_response_breached_at is null
    then $5::timestamptz <= sla_first_response_due_at else sla_first_response_met end,
  updated_at = $9::timestamptz
where company_id = $1 and id = $2`;

export const touchTicketAfterMessage = async (
  db: TDbOrTx,
  companyId: number,
  ticketId: number,
  opts: {
    lastMessage: string;
    at: Date;
    fromMe: boolean;
    unread: 'increment' | 'reset' | 'keep';
    /** the text the list search finds the ticket by (the message's body); none for call entries */
    words?: string;
    /** an agent's own message (modules/sla): the cycle's first one is its first response */
    agentReply?: boolean;
  },
) => {
  await queryRows(db, TOUCH_TICKET_SQL, [
    companyId,
    ticketId,
    indexedText(opts.words),
    opts.lastMessage,
    opts.at.toISOString(),
    opts.fromMe,
    opts.unread,
    opts.agentReply === true,
    new Date().toISOString(),
  ]);
};

/** the ticket's last message, its row locked until the transaction ends */
export const lockTicketLastMessage = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  (
    await db
      .select({ lastMessage: tickets.lastMessage, fromMe: tickets.fromMe })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
      .for('update')
  )[0] ?? null;

/**
 * The two newest messages of a ticket among those still shown and one just edited or deleted, newest first
 * (`messages_ticket_created_idx`): whether that one is the ticket's last message, and the one shown before it.
 */
export const newestShownMessages = (db: TDbOrTx, companyId: number, ticketId: number, messageId: number) =>
  db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.ticketId, ticketId),
        or(eq(messages.isDeleted, false), eq(messages.id, messageId)),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(2);

/**
 * A new last message for the ticket and who wrote it (`fromMe`: the inactivity close waits on our last word);
 * its time, its place in the list (updatedAt) and its unread count stay.
 */
export const setTicketLastMessage = (
  db: TDbOrTx,
  companyId: number,
  ticketId: number,
  last: { lastMessage: string; fromMe: boolean },
) =>
  db
    .update(tickets)
    .set({ ...last, updatedAt: sql`${tickets.updatedAt}` })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));

// ---- contacts of inbound messages

export const insertContactOnce = async (db: TDbOrTx, values: typeof contacts.$inferInsert) =>
  (await db.insert(contacts).values(values).onConflictDoNothing().returning())[0] ?? null;

const contactByNumberQuery = preparedQuery(
  (db, name) =>
    db
      .select()
      .from(contacts)
      .where(and(eq(contacts.companyId, sql.placeholder('companyId')), eq(contacts.number, sql.placeholder('number'))))
      .prepare(name),
  'inbound_contact_by_number',
);

export const contactByNumber = async (db: TDbOrTx, companyId: number, number: string) =>
  (await contactByNumberQuery(db).execute({ companyId, number }))[0] ?? null;

export const renameContact = async (db: TDbOrTx, companyId: number, id: number, name: string) => {
  const [row] = await db
    .update(contacts)
    .set({ name })
    .where(and(eq(contacts.companyId, companyId), eq(contacts.id, id)))
    .returning();
  if (row) await rebuildContactTicketsWords(db, companyId, id);

  return row ?? null;
};

/** the client id of the accept greeting the server sent on this ticket in the last `withinMinutes`, if any */
export const recentClientIdWithPrefix = async (
  db: TDbOrTx,
  companyId: number,
  ticketId: number,
  prefix: string,
  withinMinutes: number,
) =>
  (
    await db
      .select({ clientId: messages.clientId })
      .from(messages)
      .where(
        and(
          eq(messages.companyId, companyId),
          eq(messages.ticketId, ticketId),
          sql`${messages.clientId} like ${`${prefix}%`}`,
          sql`${messages.createdAt} > now() - make_interval(mins => ${withinMinutes})`,
        ),
      )
      .orderBy(desc(messages.id))
      .limit(1)
  )[0]?.clientId ?? null;
