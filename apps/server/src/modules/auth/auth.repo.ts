import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { companies, plans, userSessions, users } from '../../db/schema/index';

/** What every authenticated request needs, in one query. */
export const findSessionPrincipal = async (db: TDbOrTx, sessionId: string, userId: number) => {
  const [row] = await db
    .select({
      sessionId: userSessions.id,
      revokedAt: userSessions.revokedAt,
      expiresAt: userSessions.expiresAt,
      userId: users.id,
      companyId: users.companyId,
      profile: users.profile,
      isSuper: users.super,
      allTicket: users.allTicket,
      language: users.language,
      companyStatus: companies.status,
      dueDate: companies.dueDate,
      timezone: companies.timezone,
      plan: {
        useCampaigns: plans.useCampaigns,
        useSchedules: plans.useSchedules,
        useInternalChat: plans.useInternalChat,
        useExternalApi: plans.useExternalApi,
        useKanban: plans.useKanban,
        useOpenAi: plans.useOpenAi,
        useIntegrations: plans.useIntegrations,
      },
    })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(plans, eq(plans.id, companies.planId))
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId)))
    .limit(1);

  return row ?? null;
};

export type TSessionPrincipal = NonNullable<Awaited<ReturnType<typeof findSessionPrincipal>>>;

export const findUserForLogin = async (db: TDbOrTx, email: string) => {
  const [row] = await db
    .select({
      id: users.id,
      companyId: users.companyId,
      passwordHash: users.passwordHash,
      isSuper: users.super,
      companyStatus: companies.status,
      dueDate: companies.dueDate,
      timezone: companies.timezone,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);

  return row ?? null;
};

export const insertSession = (
  db: TDbOrTx,
  values: {
    id: string;
    userId: number;
    companyId: number;
    refreshTokenHash: string;
    expiresAt: Date;
    userAgent: string;
    ip: string;
  },
) => db.insert(userSessions).values(values);

/** a new login ends the user's other sessions */
export const revokeOtherSessions = (db: TDbOrTx, userId: number, keepSessionId: string) =>
  db
    .update(userSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(userSessions.userId, userId), ne(userSessions.id, keepSessionId), isNull(userSessions.revokedAt)));

export const revokeAllSessions = (db: TDbOrTx, userId: number) =>
  db
    .update(userSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt)));

export const revokeSession = (db: TDbOrTx, sessionId: string) =>
  db.update(userSessions).set({ revokedAt: new Date() }).where(eq(userSessions.id, sessionId));

export const findActiveSession = async (db: TDbOrTx, sessionId: string) => {
  const [row] = await db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.revokedAt), gt(userSessions.expiresAt, new Date())))
    .limit(1);

  return row ?? null;
};

/** rotation is a compare-and-set on the old hash, so a token can be used once */
export const rotateSessionToken = async (
  db: TDbOrTx,
  sessionId: string,
  oldHash: string,
  newHash: string,
  expiresAt: Date,
) => {
  const rows = await db
    .update(userSessions)
    .set({ refreshTokenHash: newHash, expiresAt })
    .where(
      and(eq(userSessions.id, sessionId), eq(userSessions.refreshTokenHash, oldHash), isNull(userSessions.revokedAt)),
    )
    .returning({ id: userSessions.id });

  return rows.length === 1;
};

export const setUserOnline = (db: TDbOrTx, userId: number, online: boolean) =>
  db.update(users).set({ online, lastSeenAt: new Date() }).where(eq(users.id, userId));

/** sessions past their expiry, or revoked before `revokedBefore` */
export const purgeDeadSessions = (db: TDbOrTx, revokedBefore: Date) =>
  db.execute(
    sql`delete from ${userSessions} where ${userSessions.expiresAt} < now() or ${userSessions.revokedAt} < ${revokedBefore}`,
  );
