import { and, eq, lt } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { apiIdempotencyKeys } from '../../db/schema/api';
import { whatsapps } from '../../db/schema/connections';
import { companies, plans } from '../../db/schema/core';

/**
 * The connection a token names (by the token's keyed hash: lib/secrets.ts `lookupHash`), with what the API's
 * checks need: its company's status, due date and time zone, and whether the company's plan has the
 * external API. Undefined for an unknown token.
 */
export const connectionOfToken = async (db: TDbOrTx, tokenHash: string) =>
  (
    await db
      .select({
        id: whatsapps.id,
        companyId: whatsapps.companyId,
        companyStatus: companies.status,
        dueDate: companies.dueDate,
        timezone: companies.timezone,
        useExternalApi: plans.useExternalApi,
      })
      .from(whatsapps)
      .innerJoin(companies, eq(companies.id, whatsapps.companyId))
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(eq(whatsapps.tokenHash, tokenHash))
      .limit(1)
  )[0];

export type TIdempotencyRow = typeof apiIdempotencyKeys.$inferSelect;

const ofKey = (companyId: number, keyHash: string) =>
  and(eq(apiIdempotencyKeys.companyId, companyId), eq(apiIdempotencyKeys.keyHash, keyHash));

/** forgets the key's row when it is older than `before` (a key is remembered for a window only) */
export const dropExpiredKey = (db: TDbOrTx, companyId: number, keyHash: string, before: Date) =>
  db.delete(apiIdempotencyKeys).where(and(ofKey(companyId, keyHash), lt(apiIdempotencyKeys.createdAt, before)));

/** claims the key for a request: the new row, or undefined when the key is already held */
export const claimKey = async (
  db: TDbOrTx,
  values: { companyId: number; keyHash: string; whatsappId: number; createdAt: Date },
) => (await db.insert(apiIdempotencyKeys).values(values).onConflictDoNothing().returning())[0];

export const findKey = async (db: TDbOrTx, companyId: number, keyHash: string) =>
  (await db.select().from(apiIdempotencyKeys).where(ofKey(companyId, keyHash)))[0];

/** the answer of the request that claimed the key, kept for the next ones */
export const storeKeyAnswer = (db: TDbOrTx, id: number, status: number, response: unknown) =>
  db.update(apiIdempotencyKeys).set({ status, response }).where(eq(apiIdempotencyKeys.id, id));

/** frees a key whose request ended before anything was stored or sent (so the client may try it again) */
export const releaseKey = (db: TDbOrTx, id: number) =>
  db.delete(apiIdempotencyKeys).where(eq(apiIdempotencyKeys.id, id));
