import { createHmac, randomInt } from 'node:crypto';
import {
  LANGUAGES,
  RESET_CODE_MAX_ATTEMPTS,
  RESET_CODE_TTL_MINUTES,
  type TLanguage,
  type TResetPasswordRequest,
} from '@zelo/shared';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { revokeAllSessions } from '../auth/auth.repo';
import { safeEqualHex } from '../auth/tokens';
import { hashPassword } from '../users/passwords';
import {
  consumeReset,
  countFailedAttempt,
  findActiveReset,
  findUserByEmail,
  replaceResetCode,
  setPasswordHash,
} from './password-reset.repo';
import { resetMail } from './reset-mail';

const hashCode = (secret: string, userId: number, code: string) =>
  createHmac('sha256', secret).update(`${userId}:${code}`).digest('hex');

export const requestPasswordReset = async (ctx: TAppContext, email: string) => {
  const user = await findUserByEmail(ctx.db, email);
  // spec 3 §7: a 404 tells the page the e-mail is unknown
  if (!user) throw new AppError('ERR_USER_DONT_EXISTS', 'No user with this e-mail', undefined, 404);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + RESET_CODE_TTL_MINUTES * 60_000);
  await replaceResetCode(ctx.db, user.id, hashCode(ctx.config.jwtRefreshSecret, user.id, code), expiresAt);
  const language = (LANGUAGES as readonly string[]).includes(user.language ?? '') ? (user.language as TLanguage) : 'pt';
  await ctx.mailer.send({ to: user.email, ...resetMail(language, user.name, code, RESET_CODE_TTL_MINUTES) });

  return { message: 'E-mail sent' };
};

export const resetPassword = async (ctx: TAppContext, body: TResetPasswordRequest) => {
  const invalid = () => new AppError('ERR_INVALID_RESET_CODE', 'Invalid or expired code');
  const user = await findUserByEmail(ctx.db, body.email);
  if (!user) throw invalid();
  const reset = await findActiveReset(ctx.db, user.id);
  if (!reset || reset.attempts >= RESET_CODE_MAX_ATTEMPTS) throw invalid();
  if (!safeEqualHex(reset.codeHash, hashCode(ctx.config.jwtRefreshSecret, user.id, body.code))) {
    await countFailedAttempt(ctx.db, reset.id);
    throw invalid();
  }
  const passwordHash = await hashPassword(body.password);
  await ctx.db.transaction(async (tx) => {
    if (!(await consumeReset(tx, reset.id))) throw invalid();
    await setPasswordHash(tx, user.id, passwordHash);
    await revokeAllSessions(tx, user.id);
  });
  await ctx.sessions.forget({ userId: user.id });

  return { message: 'Password updated' };
};
