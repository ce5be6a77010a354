import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { whatsapps } from '../../db/schema/connections';
import { companies, users } from '../../db/schema/core';
import { queues, userQueues } from '../../db/schema/queues';
import { likePattern } from '../../lib/paging';

export type TUserRow = typeof users.$inferSelect;
export type TUserInsert = typeof users.$inferInsert;

const userColumns = {
  id: users.id,
  companyId: users.companyId,
  name: users.name,
  email: users.email,
  profile: users.profile,
  super: users.super,
  online: users.online,
  away: users.away,
  allTicket: users.allTicket,
  canSeeTicketsWithoutQueue: users.canSeeTicketsWithoutQueue,
  whatsappId: users.whatsappId,
  language: users.language,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  whatsappName: whatsapps.name,
  companyName: companies.name,
  companyDueDate: companies.dueDate,
};

const selectUsers = (db: TDbOrTx) =>
  db
    .select(userColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(whatsapps, and(eq(whatsapps.id, users.whatsappId), eq(whatsapps.companyId, users.companyId)));

export type TUserListRow = Awaited<ReturnType<ReturnType<typeof selectUsers>['execute']>>[number];

const searchWhere = (companyId: number, search: string) =>
  search
    ? and(
        eq(users.companyId, companyId),
        sql`(${users.name} ILIKE ${likePattern(search)} OR ${users.email} ILIKE ${likePattern(search)})`,
      )
    : eq(users.companyId, companyId);

export const pageUsers = async (db: TDbOrTx, companyId: number, search: string, limit: number, offset: number) => {
  const where = searchWhere(companyId, search);
  const [rows, [{ total }]] = await Promise.all([
    selectUsers(db).where(where).orderBy(asc(users.name), asc(users.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(users).where(where),
  ]);

  return { rows, total };
};

export const findUser = async (db: TDbOrTx, companyId: number, id: number) =>
  (await selectUsers(db).where(and(eq(users.companyId, companyId), eq(users.id, id))))[0];

export const listUsersBrief = (db: TDbOrTx, companyId: number) =>
  db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      profile: users.profile,
      online: users.online,
      away: users.away,
    })
    .from(users)
    .where(eq(users.companyId, companyId))
    .orderBy(asc(users.name));

export const queuesOfUsers = async (db: TDbOrTx, companyId: number, userIds: number[]) => {
  if (userIds.length === 0) return [];

  return db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(and(eq(userQueues.companyId, companyId), inArray(userQueues.userId, userIds)))
    .orderBy(asc(queues.orderQueue), asc(queues.name));
};

export const emailTaken = async (db: TDbOrTx, email: string, exceptUserId?: number) => {
  const where = exceptUserId
    ? and(sql`lower(${users.email}) = ${email.toLowerCase()}`, ne(users.id, exceptUserId))
    : sql`lower(${users.email}) = ${email.toLowerCase()}`;

  return (await db.select({ id: users.id }).from(users).where(where).limit(1)).length > 0;
};

export const createUserRow = async (db: TDbOrTx, values: TUserInsert) =>
  (await db.insert(users).values(values).returning({ id: users.id }))[0];

/** an edit that changes only the user's queues still stamps the row (and never sends an empty update) */
export const updateUserRow = (db: TDbOrTx, companyId: number, id: number, values: Partial<TUserInsert>) =>
  db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(users.companyId, companyId), eq(users.id, id)));

export const deleteUserRow = (db: TDbOrTx, companyId: number, id: number) =>
  db.delete(users).where(and(eq(users.companyId, companyId), eq(users.id, id)));

export const countAdmins = async (db: TDbOrTx, companyId: number) =>
  (
    await db
      .select({ total: count() })
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.profile, 'admin')))
  )[0].total;

export const replaceUserQueues = async (db: TDbOrTx, companyId: number, userId: number, queueIds: number[]) => {
  await db.delete(userQueues).where(and(eq(userQueues.companyId, companyId), eq(userQueues.userId, userId)));
  if (queueIds.length) {
    await db.insert(userQueues).values(queueIds.map((queueId) => ({ companyId, userId, queueId })));
  }
};

/** how many of these ids are queues of the company */
export const countCompanyQueues = async (db: TDbOrTx, companyId: number, ids: number[]) =>
  ids.length === 0
    ? 0
    : (
        await db
          .select({ total: count() })
          .from(queues)
          .where(and(eq(queues.companyId, companyId), inArray(queues.id, ids)))
      )[0].total;

export const connectionOfCompany = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ id: whatsapps.id })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, id)))
  )[0];

export const findPasswordHash = async (db: TDbOrTx, id: number) =>
  (await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, id)))[0]?.passwordHash;

/** users whose last sign of life is older than `minutes` are offline */
export const markIdleUsersOffline = (db: TDbOrTx, minutes: number) =>
  db.execute(
    sql`update ${users} set online = false where ${users.online} and (${users.lastSeenAt} is null or ${users.lastSeenAt} < now() - make_interval(mins => ${minutes}))`,
  );
