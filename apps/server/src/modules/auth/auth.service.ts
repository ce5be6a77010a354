import { randomUUID } from 'node:crypto';
import { events, REFRESH_TOKEN_TTL_DAYS, type TLoginRequest, type TSessionUser } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { addDays, isPastDue } from '../../lib/dates';
import { settingsWithDefaults } from '../settings/settings.service';
import { dummyHash, verifyPassword } from '../users/passwords';
import {
  findActiveSession,
  findSessionUserRow,
  findUserForLogin,
  insertSession,
  revokeOtherSessions,
  revokeSession,
  rotateSessionToken,
  setUserOnline,
  touchLastSeen,
} from './auth.repo';
import { newRefreshToken, parseRefreshToken } from './tokens';

const sessionUserOf = (row: NonNullable<Awaited<ReturnType<typeof findSessionUserRow>>>): TSessionUser => ({
  id: row.id,
  name: row.name,
  email: row.email,
  profile: row.profile as TSessionUser['profile'],
  super: row.super,
  companyId: row.companyId,
  allTicket: row.allTicket as TSessionUser['allTicket'],
  whatsappId: row.whatsappId,
  language: row.language as TSessionUser['language'],
  canSeeTicketsWithoutQueue: row.canSeeTicketsWithoutQueue,
  away: row.away,
  queues: row.queues,
  company: {
    id: row.companyId,
    name: row.companyName,
    dueDate: row.companyDueDate,
    status: row.companyStatus,
    trialExpiration: row.companyTrialExpiration?.toISOString() ?? null,
    // an admin's session past the due date reaches only the pay screens (http/pay-only.ts)
    payOnly: !row.super && isPastDue(row.companyDueDate, row.companyTimezone),
    settings: settingsWithDefaults(row.settings),
    plan: row.plan?.id == null ? null : row.plan,
  },
});

/** The signed-in user for the web app: one prepared query (see findSessionUserRow). */
export const buildSessionUser = async (db: TDbOrTx, companyId: number, userId: number): Promise<TSessionUser> => {
  const row = await findSessionUserRow(db, companyId, userId);
  if (!row) throw new AppError('ERR_NO_USER_FOUND');

  return sessionUserOf(row);
};

const refreshExpiry = () => addDays(new Date(), REFRESH_TOKEN_TTL_DAYS);

/**
 * Who may open (or keep, on refresh) a session. Past the company's due date only its admins may: their
 * session is pay-only (http/pay-only.ts); an attendant is refused with the spec's message.
 */
const assertCompanyMayLogIn = (row: {
  isSuper: boolean;
  profile: string;
  companyStatus: boolean;
  dueDate: string | null;
  timezone: string;
}) => {
  if (row.isSuper) return;
  if (!row.companyStatus) throw new AppError('ERR_COMPANY_INACTIVE', 'This company is inactive');
  if (row.profile !== 'admin' && isPastDue(row.dueDate, row.timezone)) {
    throw new AppError('ERR_SUBSCRIPTION_EXPIRED', `Your subscription expired on ${row.dueDate}. Contact support.`);
  }
};

type TClient = { userAgent: string; ip: string };

export const login = async (ctx: TAppContext, body: TLoginRequest, client: TClient) => {
  const row = await findUserForLogin(ctx.db, body.email);
  if (!row) {
    await verifyPassword(body.password, await dummyHash());
    throw new AppError('ERR_USER_DONT_EXISTS', 'User not found, check the e-mail');
  }
  if (!(await verifyPassword(body.password, row.passwordHash))) {
    throw new AppError('ERR_INVALID_CREDENTIALS', 'Invalid credentials');
  }
  assertCompanyMayLogIn(row);
  const refresh = newRefreshToken(randomUUID());
  await ctx.db.transaction(async (tx) => {
    await insertSession(tx, {
      id: refresh.sessionId,
      userId: row.id,
      companyId: row.companyId,
      refreshTokenHash: refresh.hash,
      expiresAt: refreshExpiry(),
      userAgent: client.userAgent.slice(0, 300),
      ip: client.ip.slice(0, 64),
    });
    await revokeOtherSessions(tx, row.id, refresh.sessionId);
    await touchLastSeen(tx, row.id);
  });
  await ctx.sessions.forget({ userId: row.id });
  // older tabs of this user hear it and sign out (spec 1 §4); their sessions are already revoked
  ctx.realtime.io
    .to(`company-${row.companyId}-user-${row.id}`)
    .except(`session-${refresh.sessionId}`)
    .emit(events.auth(row.companyId), { action: 'update', user: { id: row.id } });
  const user = await buildSessionUser(ctx.db, row.companyId, row.id);
  const token = ctx.tokens.signAccess({ sub: row.id, cid: row.companyId, sid: refresh.sessionId });

  return { token, user, refreshToken: refresh.token };
};

export const refresh = async (ctx: TAppContext, cookie: string | undefined) => {
  const parsed = parseRefreshToken(cookie);
  if (!parsed) throw new AppError('ERR_NOT_AUTHENTICATED', 'No session');
  const session = await findActiveSession(ctx.db, parsed.sessionId);
  if (!session) throw new AppError('ERR_SESSION_REVOKED', 'This session was ended');
  const next = newRefreshToken(session.id);
  const rotated = await rotateSessionToken(ctx.db, session.id, parsed.hash, next.hash, refreshExpiry());
  if (!rotated) {
    // a refresh token used twice was stolen or replayed: end the session
    await revokeSession(ctx.db, session.id);
    await ctx.sessions.forget({ userId: session.userId });
    throw new AppError('ERR_SESSION_REVOKED', 'This session was ended');
  }
  const row = await findSessionUserRow(ctx.db, session.companyId, session.userId);
  if (!row) throw new AppError('ERR_NO_USER_FOUND');
  assertCompanyMayLogIn({
    isSuper: row.super,
    profile: row.profile,
    companyStatus: row.companyStatus,
    dueDate: row.companyDueDate,
    timezone: row.companyTimezone,
  });
  const user = sessionUserOf(row);
  const token = ctx.tokens.signAccess({ sub: session.userId, cid: session.companyId, sid: session.id });

  return { token, user, refreshToken: next.token };
};

export const logout = async (ctx: TAppContext, auth: TAuth) => {
  await revokeSession(ctx.db, auth.sessionId);
  await ctx.sessions.forget({ userId: auth.userId });
  await setUserOnline(ctx.db, auth.userId, false);
  ctx.realtime.io.in(`session-${auth.sessionId}`).disconnectSockets(true);
};

export const me = (ctx: TAppContext, auth: TAuth) => buildSessionUser(ctx.db, auth.companyId, auth.userId);
