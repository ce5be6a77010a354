import type { TSandboxOutboxMessage } from '@zelo/shared';
import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TDb } from '../../db/client';
import { textArray } from '../../db/pg-arrays';
import { sandboxOutbox, sandboxReadMarks } from '../../db/schema/sandbox';
import type { TConnectionRef } from '../types';
import { SANDBOX_LIMITS } from './sandbox.driver';

/**
 * The far side of sandbox connections, kept in the database (`sandbox_outbox`, `sandbox_read_marks`) so
 * a restart finds it again: what each simulated customer received, with acks, edits and deletes, and which
 * of the customers' messages the business marked read. Every call is scoped by the connection's company.
 */
export type TSandboxOutboxStore = {
  /**
   * stores a message a customer received; keeps the newest `perCustomer` of that customer and the `customers` written
   * last. A message whose externalId the connection already holds is not stored again: false.
   */
  add: (connection: TConnectionRef, message: TSandboxOutboxMessage) => Promise<boolean>;
  /** raises the ack of many messages of the connection at once (as raiseAck each); the messages that changed */
  raiseAcks: (connection: TConnectionRef, externalIds: string[], ack: number) => Promise<TSandboxOutboxMessage[]>;
  /** one customer's messages (or every customer's), oldest first, the newest `limit` */
  list: (connection: TConnectionRef, to: string | undefined, limit: number) => Promise<TSandboxOutboxMessage[]>;
  /** raises a message's ack (never lowers it, never on a deleted one); the message when it changed */
  raiseAck: (
    connection: TConnectionRef,
    to: string,
    externalId: string,
    ack: number,
  ) => Promise<TSandboxOutboxMessage | null>;
  /** ids of a customer's messages not read yet and not deleted (of `externalIds` when given), oldest first */
  unread: (connection: TConnectionRef, to: string, externalIds?: string[]) => Promise<string[]>;
  /** the business edits or deletes a message it sent; the message when it changed (absent or deleted: null) */
  edit: (
    connection: TConnectionRef,
    to: string,
    externalId: string,
    body: string,
  ) => Promise<TSandboxOutboxMessage | null>;
  remove: (connection: TConnectionRef, to: string, externalId: string) => Promise<TSandboxOutboxMessage | null>;
  /** the business read these messages of a customer; the newest `perCustomer` marks are kept */
  markRead: (connection: TConnectionRef, from: string, externalIds: string[]) => Promise<void>;
  readMarks: (connection: TConnectionRef, from: string) => Promise<string[]>;
};

export type TSandboxOutboxLimits = { customers: number; perCustomer: number };

type TOutboxRow = typeof sandboxOutbox.$inferSelect;

const toMessage = (row: TOutboxRow): TSandboxOutboxMessage => ({
  externalId: row.externalId,
  to: row.customer,
  type: row.type as TSandboxOutboxMessage['type'],
  body: row.body,
  ...(row.media ? { media: row.media } : {}),
  ...(row.location ? { location: row.location } : {}),
  ...(row.vcard !== null ? { vcard: row.vcard } : {}),
  ...(row.quotedExternalId ? { quotedExternalId: row.quotedExternalId } : {}),
  ack: row.ack,
  edited: row.edited,
  deleted: row.deleted,
  timestamp: row.sentAt.toISOString(),
});

type TPerCustomerTable = PgTable & {
  id: PgColumn;
  companyId: PgColumn;
  whatsappId: PgColumn;
  customer: PgColumn;
};

const ofConnection = (table: TPerCustomerTable, connection: TConnectionRef) =>
  and(eq(table.companyId, connection.companyId), eq(table.whatsappId, connection.id));

const ofCustomer = (table: TPerCustomerTable, connection: TConnectionRef, customer: string) =>
  and(ofConnection(table, connection), eq(table.customer, customer));

/**
 * The bounds of one table after a customer's rows were added: that customer's newest `perCustomer`
 * rows; and, when the customer is new to the connection, the `customers` written to last.
 */
const trim = (
  db: TDb,
  table: TPerCustomerTable,
  connection: TConnectionRef,
  customer: string,
  isNewCustomer: boolean,
  limits: TSandboxOutboxLimits,
) => trimMany(db, table, connection, [customer], isNewCustomer, limits);

/** `trim` for several customers of a connection after a batch of adds: one delete of their histories' excess */
const trimMany = async (
  db: TDb,
  table: TPerCustomerTable,
  connection: TConnectionRef,
  customers: string[],
  anyNewCustomer: boolean,
  limits: TSandboxOutboxLimits,
) => {
  // each customer's rows past its newest `perCustomer`, read backwards on the (company, connection, customer, id)
  // index, once (an array the delete compares ids with): a subquery joined to the delete ran once per row of the
  // connection whenever the statistics said the connection had few rows (a table that grew since its last analyze)
  const excess = sql`array(select e.id from unnest(${textArray(customers)}::text[]) as c(customer)
    cross join lateral (
      select ${table.id} as id from ${table}
      where ${table.companyId} = ${connection.companyId} and ${table.whatsappId} = ${connection.id}
        and ${table.customer} = c.customer
      order by ${table.id} desc offset ${limits.perCustomer}
    ) e)`;
  await db.delete(table).where(and(ofConnection(table, connection), sql`${table.id} = any(${excess})`));
  if (!anyNewCustomer) return;
  const dropped = db
    .select({ customer: table.customer })
    .from(table)
    .where(ofConnection(table, connection))
    .groupBy(table.customer)
    .orderBy(desc(sql`max(${table.id})`))
    .offset(limits.customers);
  await db.delete(table).where(and(ofConnection(table, connection), inArray(table.customer, dropped)));
};

const hasRows = async (db: TDb, table: TPerCustomerTable, connection: TConnectionRef, customer: string) =>
  (
    await db
      .select({ id: table.id })
      .from(table)
      .where(ofCustomer(table, connection, customer))
      .limit(1)
  ).length > 0;

export const createSandboxOutboxStore = (
  db: TDb,
  limits: TSandboxOutboxLimits = {
    customers: SANDBOX_LIMITS.customers,
    perCustomer: SANDBOX_LIMITS.messagesPerCustomer,
  },
): TSandboxOutboxStore => {
  const message = (connection: TConnectionRef, to: string, externalId: string) =>
    and(ofCustomer(sandboxOutbox, connection, to), eq(sandboxOutbox.externalId, externalId));

  /**
   * Adds are coalesced: those asked for in one turn of the event loop (a batch of sends) are written per connection
   * with one look-up of the customers already known, one insert, one trim of the customers' histories and, when a
   * customer is new, one trim of the customers kept.
   */
  type TPendingAdd = {
    connection: TConnectionRef;
    message: TSandboxOutboxMessage;
    resolve: (added: boolean) => void;
    reject: (err: unknown) => void;
  };
  let pending: TPendingAdd[] = [];
  let scheduled = false;
  let flushes: Promise<void> = Promise.resolve();
  const addMany = async (connection: TConnectionRef, list: TPendingAdd[]) => {
    const customers = [...new Set(list.map((p) => p.message.to))];
    const known = new Set(
      (
        await db
          .selectDistinct({ customer: sandboxOutbox.customer })
          .from(sandboxOutbox)
          .where(and(ofConnection(sandboxOutbox, connection), inArray(sandboxOutbox.customer, customers)))
      ).map((r) => r.customer),
    );
    const added = new Set(
      (
        await db
          .insert(sandboxOutbox)
          .values(
            list.map(({ message: m }) => ({
              companyId: connection.companyId,
              whatsappId: connection.id,
              customer: m.to,
              externalId: m.externalId,
              type: m.type,
              body: m.body,
              media: m.media ?? null,
              location: m.location ?? null,
              vcard: m.vcard ?? null,
              quotedExternalId: m.quotedExternalId ?? null,
              ack: m.ack,
              edited: m.edited,
              deleted: m.deleted,
              sentAt: new Date(m.timestamp),
            })),
          )
          .onConflictDoNothing({ target: [sandboxOutbox.whatsappId, sandboxOutbox.externalId] })
          .returning({ externalId: sandboxOutbox.externalId })
      ).map((r) => r.externalId),
    );
    const grown = [...new Set(list.filter((p) => added.has(p.message.externalId)).map((p) => p.message.to))];
    if (grown.length > 0) {
      await trimMany(
        db,
        sandboxOutbox,
        connection,
        grown,
        grown.some((c) => !known.has(c)),
        limits,
      );
    }
    // one message id twice in the batch: the first is the one added
    const seen = new Set<string>();
    for (const p of list) {
      const first = added.has(p.message.externalId) && !seen.has(p.message.externalId);
      seen.add(p.message.externalId);
      p.resolve(first);
    }
  };
  const flush = async () => {
    const batch = pending;
    pending = [];
    const byConnection = new Map<string, TPendingAdd[]>();
    for (const p of batch) {
      const key = `${p.connection.companyId}:${p.connection.id}`;
      byConnection.set(key, [...(byConnection.get(key) ?? []), p]);
    }
    for (const list of byConnection.values()) {
      await addMany(list[0]!.connection, list).catch((err) => {
        for (const p of list) p.reject(err);
      });
    }
  };

  return {
    add: (connection, m) =>
      new Promise<boolean>((resolve, reject) => {
        pending.push({ connection, message: m, resolve, reject });
        if (scheduled) return;
        scheduled = true;
        // one flush at a time: what is added meanwhile waits for the next (no two trims contend for rows)
        setImmediate(() => {
          flushes = flushes.then(() => {
            scheduled = false;
            return flush();
          });
        });
      }),
    list: async (connection, to, limit) => {
      const rows = await db
        .select()
        .from(sandboxOutbox)
        .where(to === undefined ? ofConnection(sandboxOutbox, connection) : ofCustomer(sandboxOutbox, connection, to))
        .orderBy(desc(sandboxOutbox.id))
        .limit(limit);

      return rows.reverse().map(toMessage);
    },
    raiseAcks: async (connection, externalIds, ack) => {
      if (externalIds.length === 0) return [];
      const rows = await db
        .update(sandboxOutbox)
        .set({ ack })
        .where(
          and(
            ofConnection(sandboxOutbox, connection),
            inArray(sandboxOutbox.externalId, externalIds),
            lt(sandboxOutbox.ack, ack),
            eq(sandboxOutbox.deleted, false),
          ),
        )
        .returning();

      return rows.map(toMessage);
    },
    raiseAck: async (connection, to, externalId, ack) => {
      const [row] = await db
        .update(sandboxOutbox)
        .set({ ack })
        .where(and(message(connection, to, externalId), lt(sandboxOutbox.ack, ack), eq(sandboxOutbox.deleted, false)))
        .returning();

      return row ? toMessage(row) : null;
    },
    unread: async (connection, to, externalIds) => {
      if (externalIds?.length === 0) return [];
      const rows = await db
        .select({ externalId: sandboxOutbox.externalId })
        .from(sandboxOutbox)
        .where(
          and(
            ofCustomer(sandboxOutbox, connection, to),
            lt(sandboxOutbox.ack, 4),
            eq(sandboxOutbox.deleted, false),
            externalIds ? inArray(sandboxOutbox.externalId, externalIds) : undefined,
          ),
        )
        .orderBy(asc(sandboxOutbox.id));

      return rows.map((r) => r.externalId);
    },
    edit: async (connection, to, externalId, body) => {
      const [row] = await db
        .update(sandboxOutbox)
        .set({ body, edited: true })
        .where(and(message(connection, to, externalId), eq(sandboxOutbox.deleted, false)))
        .returning();

      return row ? toMessage(row) : null;
    },
    remove: async (connection, to, externalId) => {
      const [row] = await db
        .update(sandboxOutbox)
        .set({ body: '', deleted: true })
        .where(and(message(connection, to, externalId), eq(sandboxOutbox.deleted, false)))
        .returning();

      return row ? toMessage(row) : null;
    },
    markRead: async (connection, from, externalIds) => {
      if (externalIds.length === 0) return;
      const known = await hasRows(db, sandboxReadMarks, connection, from);
      await db
        .insert(sandboxReadMarks)
        .values(
          [...new Set(externalIds)].map((externalId) => ({
            companyId: connection.companyId,
            whatsappId: connection.id,
            customer: from,
            externalId,
          })),
        )
        .onConflictDoNothing();
      await trim(db, sandboxReadMarks, connection, from, !known, limits);
    },
    readMarks: async (connection, from) =>
      (
        await db
          .select({ externalId: sandboxReadMarks.externalId })
          .from(sandboxReadMarks)
          .where(ofCustomer(sandboxReadMarks, connection, from))
          .orderBy(asc(sandboxReadMarks.id))
      ).map((r) => r.externalId),
  };
};
