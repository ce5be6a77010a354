import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { cloudApiInbox } from '../../db/schema/cloud-api';

/**
 * Where a received webhook waits for its connection's session: stored before Meta gets its 200, deleted
 * once handed to the pipeline. The webhook route adds; the owning session takes and finishes.
 */
export type TWebhookInbox = {
  add: (connectionId: number, payload: string) => Promise<void>;
  /** the oldest waiting rows of a connection; each take counts an attempt */
  take: (connectionId: number, limit: number) => Promise<{ id: number; payload: string; attempts: number }[]>;
  done: (ids: number[]) => Promise<void>;
};

export const createWebhookInbox = (db: TDb): TWebhookInbox => ({
  add: async (connectionId, payload) => {
    await db.insert(cloudApiInbox).values({ whatsappId: connectionId, payload });
  },
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
});

/** the same in memory (tests of the driver without a database) */
export const createMemoryWebhookInbox = (): TWebhookInbox => {
  let seq = 0;
  const rows: { id: number; connectionId: number; payload: string; attempts: number }[] = [];

  return {
    add: async (connectionId, payload) => {
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
  };
};
