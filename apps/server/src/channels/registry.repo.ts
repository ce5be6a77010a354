import { and, asc, eq, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client';
import { whatsapps } from '../db/schema/connections';
import { channelLeases } from '../db/schema/core';
import type { TConnectionRef } from './types';

/**
 * The registry's database needs: which connections exist (across companies, at boot) and the session
 * lease rows that give each connection exactly one owning node.
 */

const refColumns = { id: whatsapps.id, companyId: whatsapps.companyId, provider: whatsapps.provider };
const asRefs = (rows: { id: number; companyId: number; provider: string }[]): TConnectionRef[] =>
  rows.map((r) => ({ ...r, provider: r.provider as TConnectionRef['provider'] }));

/** every connection of every company whose status is not one of `idle` (boot, one node) */
export const listStartable = async (db: TDbOrTx, idle: string[]) =>
  asRefs(
    await db.select(refColumns).from(whatsapps).where(notInArray(whatsapps.status, idle)).orderBy(asc(whatsapps.id)),
  );

/** connections that should run and whose lease is missing or stale (boot and takeover, several nodes) */
export const listOrphans = async (db: TDbOrTx, idle: string[], staleSeconds: number) =>
  asRefs(
    await db
      .select(refColumns)
      .from(whatsapps)
      .leftJoin(channelLeases, eq(channelLeases.connectionId, whatsapps.id))
      .where(
        and(
          notInArray(whatsapps.status, idle),
          or(
            isNull(channelLeases.connectionId),
            lt(channelLeases.heartbeatAt, sql`now() - make_interval(secs => ${staleSeconds})`),
          ),
        ),
      )
      .orderBy(asc(whatsapps.id)),
  );

export const findConnectionRef = async (db: TDbOrTx, connectionId: number): Promise<TConnectionRef | undefined> => {
  return asRefs(await db.select(refColumns).from(whatsapps).where(eq(whatsapps.id, connectionId)))[0];
};

/**
 * Takes or renews the lease of a connection for this node: granted when nobody holds it, when this node
 * already does, or when the holder's heartbeat is older than `staleSeconds` (its node died).
 * `force` takes it whatever the holder (PGlite: one process per database).
 */
export const acquireLease = async (
  db: TDbOrTx,
  connectionId: number,
  nodeId: string,
  staleSeconds: number,
  force = false,
): Promise<boolean> => {
  const stale = sql`now() - make_interval(secs => ${staleSeconds})`;
  const rows = await db
    .insert(channelLeases)
    .values({ connectionId, nodeId, heartbeatAt: sql`now()` })
    .onConflictDoUpdate({
      target: channelLeases.connectionId,
      set: { nodeId, heartbeatAt: sql`now()` },
      setWhere: force ? undefined : sql`${channelLeases.nodeId} = ${nodeId} or ${channelLeases.heartbeatAt} < ${stale}`,
    })
    .returning({ nodeId: channelLeases.nodeId });

  return rows.length > 0 && rows[0].nodeId === nodeId;
};

/** renews every lease this node holds; answers the connection ids it still holds */
export const heartbeatLeases = async (db: TDbOrTx, nodeId: string): Promise<number[]> =>
  (
    await db
      .update(channelLeases)
      .set({ heartbeatAt: sql`now()` })
      .where(eq(channelLeases.nodeId, nodeId))
      .returning({ connectionId: channelLeases.connectionId })
  ).map((r) => r.connectionId);

export const releaseLease = (db: TDbOrTx, connectionId: number, nodeId: string) =>
  db.delete(channelLeases).where(and(eq(channelLeases.connectionId, connectionId), eq(channelLeases.nodeId, nodeId)));

export const releaseAllLeases = (db: TDbOrTx, nodeId: string) =>
  db.delete(channelLeases).where(eq(channelLeases.nodeId, nodeId));

/** the lease of a deleted connection (no foreign key: the row outlives nothing) */
export const dropLease = (db: TDbOrTx, connectionId: number) =>
  db.delete(channelLeases).where(eq(channelLeases.connectionId, connectionId));

export const leaseHolder = async (db: TDbOrTx, connectionId: number) =>
  (
    await db
      .select({ nodeId: channelLeases.nodeId })
      .from(channelLeases)
      .where(eq(channelLeases.connectionId, connectionId))
  )[0]?.nodeId;
