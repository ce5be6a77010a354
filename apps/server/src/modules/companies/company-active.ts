import type { TDbOrTx } from '../../db/client';
import { isPastDue } from '../../lib/dates';
import type { TSessionCache } from '../auth/session-cache';
import { findCompanyStanding } from './companies.repo';

/**
 * Whether a company's automatic work runs (issue 13 item 4): its bots, schedules and campaigns pause
 * while it is inactive or past its due date, and resume by themselves once it pays (the due date moves
 * forward) — nothing is deleted, and its connections keep receiving meanwhile.
 *
 * The company's row is kept a few seconds in the session cache and forgotten with every change to the
 * company (`ctx.sessions.forget({ companyId })`, which a company update already does), so a sender
 * looping over many messages of one company reads it once. Call it right before each automatic send:
 * `if (!(await isCompanyActive(ctx, companyId))) skip;` — `ctx` is the TAppContext (only `db` and
 * `sessions` are read). A company that does not exist is not active.
 */
export const isCompanyActive = async (
  deps: { db: TDbOrTx; sessions: Pick<TSessionCache, 'company'> },
  companyId: number,
  now: Date = new Date(),
): Promise<boolean> => {
  const standing = await deps.sessions.company(companyId, () => findCompanyStanding(deps.db, companyId));

  return Boolean(standing?.status) && !isPastDue(standing?.dueDate ?? null, standing?.timezone ?? 'UTC', now);
};
