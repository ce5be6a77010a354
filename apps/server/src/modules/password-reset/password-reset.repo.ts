import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { passwordResets, users } from '../../db/schema/core';

export const findUserByEmail = async (db: TDbOrTx, email: string) =>
  (
    await db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        language: users.language,
        companyId: users.companyId,
      })
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
      .limit(1)
  )[0];

/** a new code replaces any earlier one */
export const replaceResetCode = async (db: TDbOrTx, userId: number, codeHash: string, expiresAt: Date) => {
  await db
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  await db.insert(passwordResets).values({ userId, codeHash, expiresAt });
};

export const findActiveReset = async (db: TDbOrTx, userId: number) =>
  (
    await db
      .select()
      .from(passwordResets)
      .where(
        and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())),
      )
      .orderBy(desc(passwordResets.id))
      .limit(1)
  )[0];

export const countFailedAttempt = (db: TDbOrTx, id: number) =>
  db
    .update(passwordResets)
    .set({ attempts: sql`${passwordResets.attempts} + 1` })
    .where(eq(passwordResets.id, id));

/** single use: only one request can consume a code */
export const consumeReset = async (db: TDbOrTx, id: number) =>
  (
    await db
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id })
  ).length === 1;

export const purgeOldResets = (db: TDbOrTx, before: Date) =>
  db.delete(passwordResets).where(or(lt(passwordResets.expiresAt, before), lt(passwordResets.usedAt, before)));

export const setPasswordHash = (db: TDbOrTx, userId: number, passwordHash: string) =>
  db.update(users).set({ passwordHash }).where(eq(users.id, userId));
