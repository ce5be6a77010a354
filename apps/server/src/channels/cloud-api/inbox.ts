import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { cloudApiInbox } from '../../db/schema/cloud-api';
import { deadLetterWebhook } from '../deliveries.repo';

/**
 * Where a received webhook waits for its connection's session: stored before Meta gets its 200, deleted
 * once handed to the pipeline. The webhook route adds; the owning session takes and finishes.
 */
export type TWebhookInbox = {
  add: (connectionId: number, payload: string) => Promise<void>;
  /** the oldest waiting rows of a connection; each take counts an attempt */
  take: (connectionId: number, limit: number) => Promise<{ id: number; payload: string; attempts: number }[]>;
  done: (ids: number[]) => Promise<void>;
  /** a delivery that cannot be handed over: kept in the dead-letter list (inbound_deliveries) with its error */
  deadLetter: (connectionId: number, row: { payload: string; attempts: number }, error: string) => Promise<void>;
  /** ms since this process last stored a delivery (a burst in progress is let finish before the drain) */
  quietMs: () => number;
};

/**
 * The database inbox. Deliveries that arrive together (Meta sends bursts) are written by one multi-row
 * insert: each caller still waits for its own row to be stored before it answers 200.
 */
/** when each database last got a delivery in this process (the route's and the sessions' inboxes share it) */
const activity = new WeakMap<TDb, { lastAdd: number }>();

export const createWebhookInbox = (db: TDb): TWebhookInbox => {
  const seen = activity.get(db) ?? { lastAdd: 0 };
  activity.set(db, seen);
  let pending: { row: { whatsappId: number; payload: string }; done: (err?: unknown) => void }[] = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    try {
      await db.insert(cloudApiInbox).values(batch.map((p) => p.row));
      for (const p of batch) p.done();
    } catch (err) {
      for (const p of batch) p.done(err);
    }
  };

  return {
    quietMs: () => Date.now() - seen.lastAdd,
    add: (connectionId, payload) =>
      new Promise<void>((resolve, reject) => {
        seen.lastAdd = Date.now();
        if (pending.length === 0) setImmediate(() => void flush());
        pending.push({ row: { whatsappId: connectionId, payload }, done: (err) => (err ? reject(err) : resolve()) });
      }),
    take: async (connectionId, limit) => {
      const rows = await db
        .select({ id: cloudApiInbox.id, payload: cloudApiInbox.payload, attempts: cloudApiInbox.attempts })
        .from(cloudApiInbox)
        .where(eq(cloudApiInbox.whatsappId, connectionId))
        .orderBy(asc(cloudApiInbox.id))
        .limit(limit);
      if (rows.length > 0) {
        await db
          .update(cloudApiInbox)
          .set({ attempts: sql`${cloudApiInbox.attempts} + 1` })
          .where(
            and(
              eq(cloudApiInbox.whatsappId, connectionId),
              inArray(
                cloudApiInbox.id,
                rows.map((r) => r.id),
              ),
            ),
          );
      }

      return rows;
    },
    done: async (ids) => {
      if (ids.length > 0) await db.delete(cloudApiInbox).where(inArray(cloudApiInbox.id, ids));
    },
    deadLetter: async (connectionId, row, error) => {
      await deadLetterWebhook(db, connectionId, row.payload, row.attempts, error);
    },
  };
};

/** the same in memory (tests of the driver without a database) */
export const createMemoryWebhookInbox = (): TWebhookInbox => {
  let seq = 0;
  let lastAdd = 0;
  const rows: { id: number; connectionId: number; payload: string; attempts: number }[] = [];

  return {
    quietMs: () => Date.now() - lastAdd,
    add: async (connectionId, payload) => {
      lastAdd = Date.now();
      seq += 1;
      rows.push({ id: seq, connectionId, payload, attempts: 0 });
    },
    take: async (connectionId, limit) =>
      rows
        .filter((r) => r.connectionId === connectionId)
        .slice(0, limit)
        .map((r) => {
          r.attempts += 1;
          return { id: r.id, payload: r.payload, attempts: r.attempts - 1 };
        }),
    done: async (ids) => {
      const gone = new Set(ids);
      for (let i = rows.length - 1; i >= 0; i--) if (gone.has(rows[i].id)) rows.splice(i, 1);
    },
    deadLetter: async () => undefined,
  };
};
