import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { TUserQueue } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import { preparedQuery } from '../../db/prepared';
import { companies, plans, queues, settings, userQueues, userSessions, users } from '../../db/schema/index';

/** What every authenticated request needs, in one prepared query (read on every request: never cached). */
const sessionPrincipal = preparedQuery(
  (db, name) =>
    db
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
      .where(and(eq(userSessions.id, sql.placeholder('sessionId')), eq(userSessions.userId, sql.placeholder('userId'))))
      .limit(1)
      .prepare(name),
  'auth_session_principal',
);

export const findSessionPrincipal = async (db: TDbOrTx, sessionId: string, userId: number) => {
  const [row] = await sessionPrincipal(db).execute({ sessionId, userId });

  return row ?? null;
};

type TQueueBrief = TUserQueue;

/**
 * The signed-in user as the web app needs it (user, its queues, company, plan and stored settings), in
 * one prepared query: the queues and settings are aggregated to JSON by correlated subqueries.
 */
const sessionUserRow = preparedQuery(
  (db, name) =>
    db
      .select({
        id: users.id,
        companyId: users.companyId,
        name: users.name,
        email: users.email,
        profile: users.profile,
        super: users.super,
        allTicket: users.allTicket,
        whatsappId: users.whatsappId,
        language: users.language,
        canSeeTicketsWithoutQueue: users.canSeeTicketsWithoutQueue,
        away: users.away,
        companyName: companies.name,
        companyDueDate: companies.dueDate,
        companyStatus: companies.status,
        companyTimezone: companies.timezone,
        companyTrialExpiration: companies.trialExpiration,
        plan: {
          id: plans.id,
          name: plans.name,
          useCampaigns: plans.useCampaigns,
          useSchedules: plans.useSchedules,
          useInternalChat: plans.useInternalChat,
          useExternalApi: plans.useExternalApi,
          useKanban: plans.useKanban,
          useOpenAi: plans.useOpenAi,
          useIntegrations: plans.useIntegrations,
        },
        queues: sql<TQueueBrief[]>`coalesce((
          select json_agg(json_build_object('id', ${queues.id}, 'name', ${queues.name}, 'color', ${queues.color},
                                            'UserQueue', json_build_object('userId', ${users.id}, 'queueId', ${queues.id}))
                          order by ${queues.orderQueue}, ${queues.name})
          from ${userQueues} inner join ${queues} on ${queues.id} = ${userQueues.queueId}
          where ${userQueues.companyId} = ${users.companyId} and ${userQueues.userId} = ${users.id}
        ), '[]'::json)`,
        settings: sql<{ key: string; value: string }[]>`coalesce((
          select json_agg(json_build_object('key', ${settings.key}, 'value', ${settings.value}))
          from ${settings} where ${settings.companyId} = ${companies.id}
        ), '[]'::json)`,
      })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(and(eq(users.companyId, sql.placeholder('companyId')), eq(users.id, sql.placeholder('userId'))))
      .limit(1)
      .prepare(name),
  'auth_session_user',
);

export const findSessionUserRow = async (db: TDbOrTx, companyId: number, userId: number) => {
  const [row] = await sessionUserRow(db).execute({ companyId, userId });

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
      profile: users.profile,
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

/**
 * a login is a sign of life but not presence: `online` is the socket's (realtime.ts), as in the ancestor, so
 * automatic assignment never counts a user who signed in without opening the app
 */
export const touchLastSeen = (db: TDbOrTx, userId: number) =>
  db.update(users).set({ lastSeenAt: new Date() }).where(eq(users.id, userId));

/** sessions past their expiry, or revoked before `revokedBefore` */
export const purgeDeadSessions = (db: TDbOrTx, revokedBefore: Date) =>
  db.execute(
    sql`delete from ${userSessions} where ${userSessions.expiresAt} < now() or ${userSessions.revokedAt} < ${revokedBefore}`,
  );
