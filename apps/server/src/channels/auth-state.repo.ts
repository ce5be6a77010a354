import { and, eq, inArray, sql } from 'drizzle-orm';
import type { TDb } from '../db/client';
import { channelAuthState } from '../db/schema/connections';

/**
 * A connection's stored session state (pairing, credentials, keys), one row per key, so drivers keep
 * what a restart must find again in the database and never in files.
 */
export type TAuthStateStore = {
  get: (connectionId: number, key: string) => Promise<string | undefined>;
  getMany: (connectionId: number, keys: string[]) => Promise<Map<string, string>>;
  set: (connectionId: number, key: string, value: string) => Promise<void>;
  remove: (connectionId: number, key: string) => Promise<void>;
  /** forget everything (logout) */
  clear: (connectionId: number) => Promise<void>;
};

export const createAuthStateStore = (db: TDb): TAuthStateStore => ({
  get: async (connectionId, key) =>
    (
      await db
        .select({ value: channelAuthState.value })
        .from(channelAuthState)
        .where(and(eq(channelAuthState.connectionId, connectionId), eq(channelAuthState.key, key)))
    )[0]?.value,
  getMany: async (connectionId, keys) => {
    if (keys.length === 0) return new Map();
    const rows = await db
      .select({ key: channelAuthState.key, value: channelAuthState.value })
      .from(channelAuthState)
      .where(and(eq(channelAuthState.connectionId, connectionId), inArray(channelAuthState.key, keys)));

    return new Map(rows.map((r) => [r.key, r.value]));
  },
  set: async (connectionId, key, value) => {
    await db
      .insert(channelAuthState)
      .values({ connectionId, key, value })
      .onConflictDoUpdate({
        target: [channelAuthState.connectionId, channelAuthState.key],
        set: { value, updatedAt: sql`now()` },
      });
  },
  remove: async (connectionId, key) => {
    await db
      .delete(channelAuthState)
      .where(and(eq(channelAuthState.connectionId, connectionId), eq(channelAuthState.key, key)));
  },
  clear: async (connectionId) => {
    await db.delete(channelAuthState).where(eq(channelAuthState.connectionId, connectionId));
  },
});

/** an in-memory store with the same contract, for driver tests that run without a database */
export const createMemoryAuthStateStore = (): TAuthStateStore => {
  const data = new Map<string, string>();
  const k = (connectionId: number, key: string) => `${connectionId}\u0000${key}`;

  return {
    get: async (connectionId, key) => data.get(k(connectionId, key)),
    getMany: async (connectionId, keys) =>
      new Map(
        keys.filter((key) => data.has(k(connectionId, key))).map((key) => [key, data.get(k(connectionId, key))!]),
      ),
    set: async (connectionId, key, value) => {
      data.set(k(connectionId, key), value);
    },
    remove: async (connectionId, key) => {
      data.delete(k(connectionId, key));
    },
    clear: async (connectionId) => {
      for (const key of [...data.keys()]) if (key.startsWith(`${connectionId}\u0000`)) data.delete(key);
    },
  };
};
