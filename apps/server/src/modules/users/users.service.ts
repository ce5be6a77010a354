import {
  events,
  type TLanguage,
  type TListQuery,
  type TUser,
  type TUserBody,
  type TUserQueue,
  type TUserUpdateBody,
} from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { revokeAllSessions, revokeOtherSessions } from '../auth/auth.repo';
import { lockCompany, updateCompanyRow } from '../companies/companies.repo';
import { assertPlanLimit } from '../plans/plan-limits';
import { readSetting } from '../settings/settings.service';
import { hashPassword } from './passwords';
import {
  connectionOfCompany,
  countAdmins,
  countCompanyQueues,
  createUserRow,
  deleteUserRow,
  emailTaken,
  findUser,
  listUsersBrief,
  pageUsers,
  queuesOfUsers,
  replaceUserQueues,
  type TUserListRow,
  updateUserRow,
} from './users.repo';

/** one user's queues, each with the ancestor's join row `UserQueue` */
const queuesOfUser = (rows: Awaited<ReturnType<typeof queuesOfUsers>>, userId: number): TUserQueue[] =>
  rows
    .filter((q) => q.userId === userId)
    .map(({ id, name, color }) => ({ id, name, color, UserQueue: { userId, queueId: id } }));

const withQueues = async (db: TDbOrTx, companyId: number, rows: TUserListRow[]): Promise<TUser[]> => {
  const queues = await queuesOfUsers(
    db,
    companyId,
    rows.map((r) => r.id),
  );

  return rows.map((r) => {
    const own = queuesOfUser(queues, r.id);

    return {
      id: r.id,
      companyId: r.companyId,
      name: r.name,
      email: r.email,
      profile: r.profile as TUser['profile'],
      super: r.super,
      online: r.online,
      away: r.away,
      allTicket: r.allTicket as TUser['allTicket'],
      canSeeTicketsWithoutQueue: r.canSeeTicketsWithoutQueue,
      whatsappId: r.whatsappId,
      whatsapp: r.whatsappId && r.whatsappName ? { id: r.whatsappId, name: r.whatsappName } : null,
      language: r.language as TUser['language'],
      queues: own,
      queueIds: own.map((q) => q.id),
      company: { id: r.companyId, name: r.companyName, dueDate: r.companyDueDate },
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
};

export const loadUser = async (db: TDbOrTx, companyId: number, id: number) => {
  const row = await findUser(db, companyId, id);
  if (!row) throw new AppError('ERR_NO_USER_FOUND');

  return (await withQueues(db, companyId, [row]))[0];
};

/** what an attendant reads of a colleague: who it is and its queues (as /users/list tells), nothing of its settings */
const brief = (u: TUser) => ({
  id: u.id,
  name: u.name,
  email: u.email,
  profile: u.profile,
  online: u.online,
  away: u.away,
  queues: u.queues,
});

/** the users page: admins read everything; anyone else the brief of each (the transfer dialog's search) */
export const getUserPage = async (ctx: TAppContext, auth: TAuth, query: TListQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageUsers(ctx.db, auth.companyId, query.searchParam, limit, offset);
  const page = pageAnswer(await withQueues(ctx.db, auth.companyId, rows), total, query.pageNumber);

  return { users: auth.isAdmin ? page.rows : page.rows.map(brief), count: page.count, hasMore: page.hasMore };
};

export const getUsersBrief = (ctx: TAppContext, auth: TAuth) => listUsersBrief(ctx.db, auth.companyId);

/**
 * `GET /users/list?companyId=N` as the ancestor's SimpleListService answers it (its company form's "User"
 * button): name, id, e-mail and queues, ordered by id. The super user reads the named company; anyone else
 * reads their own company whatever the query says.
 */
export const getCompanyUsers = async (ctx: TAppContext, auth: TAuth, companyId: number) => {
  const target = auth.isSuper ? companyId : auth.companyId;
  const rows = (await listUsersBrief(ctx.db, target))
    .map(({ id, name, email }) => ({ id, name, email }))
    .sort((a, b) => a.id - b.id);
  const queues = await queuesOfUsers(
    ctx.db,
    target,
    rows.map((r) => r.id),
  );

  return rows.map((r) => ({
    ...r,
    queues: queuesOfUser(queues, r.id),
  }));
};

export const getUser = (ctx: TAppContext, auth: TAuth, id: number) => {
  if (!auth.isAdmin && auth.userId !== id) throw new AppError('ERR_NO_PERMISSION');

  return loadUser(ctx.db, auth.companyId, id);
};

/** queues and the default connection must be the caller's company's own */
const assertReferences = async (
  db: TDbOrTx,
  companyId: number,
  body: { queueIds?: number[]; whatsappId?: number | null },
) => {
  if (body.queueIds?.length) {
    const unique = [...new Set(body.queueIds)];
    if ((await countCompanyQueues(db, companyId, unique)) !== unique.length) {
      throw new AppError('ERR_VALIDATION', 'Unknown queue', [{ path: 'queueIds', message: 'invalid' }]);
    }
  }
  if (body.whatsappId && !(await connectionOfCompany(db, companyId, body.whatsappId))) {
    throw new AppError('ERR_NO_WAPP_FOUND');
  }
};

const announce = (ctx: TAppContext, companyId: number, user: TUser, action: 'create' | 'update') =>
  ctx.realtime.toCompany(companyId, events.user(companyId), { action, user });

export const createUser = async (ctx: TAppContext, auth: TAuth, body: TUserBody) => {
  const companyId = auth.companyId;
  if (!auth.isSuper && (await readSetting(ctx.db, companyId, 'userCreation')) === 'disabled') {
    throw new AppError('ERR_USER_CREATION_DISABLED');
  }
  const passwordHash = await hashPassword(body.password);
  const id = await ctx.db.transaction(async (tx) => {
    await assertPlanLimit(tx, companyId, 'users');
    if (await emailTaken(tx, body.email)) throw new AppError('ERR_DUPLICATED_EMAIL', 'This e-mail is in use');
    await assertReferences(tx, companyId, body);
    const row = await createUserRow(tx, {
      companyId,
      name: body.name,
      email: body.email,
      passwordHash,
      profile: body.profile,
      allTicket: body.allTicket,
      canSeeTicketsWithoutQueue: body.canSeeTicketsWithoutQueue,
      whatsappId: body.whatsappId ?? null,
      language: body.language ?? null,
    });
    await replaceUserQueues(tx, companyId, row.id, [...new Set(body.queueIds)]);

    return row.id;
  });
  const user = await loadUser(ctx.db, companyId, id);
  announce(ctx, companyId, user, 'create');

  return user;
};

const SELF_EDITABLE = new Set(['name', 'email', 'password', 'language']);

export const updateUser = async (ctx: TAppContext, auth: TAuth, id: number, body: TUserUpdateBody) => {
  const companyId = auth.companyId;
  const isSelf = auth.userId === id;
  if (!auth.isAdmin) {
    if (!isSelf) throw new AppError('ERR_NO_PERMISSION');
    const forbidden = Object.keys(body).filter(
      (k) => body[k as keyof TUserUpdateBody] !== undefined && !SELF_EDITABLE.has(k),
    );
    if (forbidden.length) throw new AppError('ERR_NO_PERMISSION', `Only admins may change ${forbidden.join(', ')}`);
  }
  const current = await loadUser(ctx.db, companyId, id);
  const passwordHash = body.password ? await hashPassword(body.password) : undefined;
  await ctx.db.transaction(async (tx) => {
    if (body.email && (await emailTaken(tx, body.email, id))) {
      throw new AppError('ERR_DUPLICATED_EMAIL', 'This e-mail is in use');
    }
    await assertReferences(tx, companyId, body);
    if (current.profile === 'admin' && body.profile === 'user') {
      await lockCompany(tx, companyId);
      if ((await countAdmins(tx, companyId)) <= 1) throw new AppError('ERR_LAST_ADMIN');
    }
    await updateUserRow(tx, companyId, id, {
      name: body.name,
      email: body.email,
      passwordHash,
      profile: body.profile,
      allTicket: body.allTicket,
      canSeeTicketsWithoutQueue: body.canSeeTicketsWithoutQueue,
      whatsappId: body.whatsappId,
      language: body.language,
    });
    if (body.queueIds) await replaceUserQueues(tx, companyId, id, [...new Set(body.queueIds)]);
    // a new password ends every other session of that user
    if (passwordHash) {
      if (isSelf) await revokeOtherSessions(tx, id, auth.sessionId);
      else await revokeAllSessions(tx, id);
    }
  });
  await ctx.sessions.forget({ userId: id });
  const user = await loadUser(ctx.db, companyId, id);
  announce(ctx, companyId, user, 'update');
  // new queues may have tickets waiting for this agent (modules/assignment)
  if (body.queueIds) ctx.assignment?.kick(companyId);

  return user;
};

export const deleteUser = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const companyId = auth.companyId;
  if (auth.userId === id) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const current = await loadUser(ctx.db, companyId, id);
  if (current.super && !auth.isSuper) throw new AppError('ERR_NO_PERMISSION');
  await ctx.db.transaction(async (tx) => {
    if (current.profile === 'admin') {
      await lockCompany(tx, companyId);
      if ((await countAdmins(tx, companyId)) <= 1) throw new AppError('ERR_LAST_ADMIN');
    }
    await deleteUserRow(tx, companyId, id);
  });
  await ctx.sessions.forget({ userId: id });
  ctx.realtime.toCompany(companyId, events.user(companyId), { action: 'delete', userId: id });
};

/** the user's interface language; an admin's choice also sets the company's automatic messages */
export const setLanguage = async (ctx: TAppContext, auth: TAuth, language: TLanguage) => {
  await ctx.db.transaction(async (tx) => {
    await updateUserRow(tx, auth.companyId, auth.userId, { language });
    if (auth.isAdmin) await updateCompanyRow(tx, auth.companyId, { language });
  });
  await ctx.sessions.forget({ userId: auth.userId });

  return { language };
};
