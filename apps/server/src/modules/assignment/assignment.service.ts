import { events, type TAwayAnswer } from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { loadUser } from '../users/users.service';
import { setAway } from './assignment.repo';

/**
 * The signed-in user pauses ("away") or resumes automatic assignment for itself. Stored on the user, so every
 * tab and node sees it; the company hears the user's update (`company-{id}-user`, as any user change), which
 * is how colleagues' screens show it; resuming lets the waiting tickets come at once.
 */
export const setOwnAway = async (ctx: TAppContext, auth: TAuth, away: boolean): Promise<TAwayAnswer> => {
  const row = await setAway(ctx.db, auth.companyId, auth.userId, away);
  if (!row) throw new AppError('ERR_NO_USER_FOUND');
  const user = await loadUser(ctx.db, auth.companyId, auth.userId);
  ctx.realtime.toCompany(auth.companyId, events.user(auth.companyId), { action: 'update', user });
  if (!away) ctx.assignment?.kick(auth.companyId);

  return { id: row.id, away: row.away, online: row.online };
};
