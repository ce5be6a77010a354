import type { TSessionUser } from '@zelo/shared';

/**
 * Where a signed-in company stands (issue 13): past its due date an admin's session is pay-only (the server
 * says so in `company.payOnly` and refuses every other route with 402), and a company in its sign-up trial
 * sees the trial banner.
 */

/** the screens a pay-only session may open; any other path goes to the first */
export const PAY_ONLY_PATHS = ['/subscription', '/financeiro'] as const;

export const isPayOnly = (user: TSessionUser | null | undefined) =>
  Boolean(user && !user.super && user.company.payOnly);

export const reachableWhenPayOnly = (pathname: string) =>
  PAY_ONLY_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));

const DAY_MS = 86_400_000;
const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * Whole days left of the trial (1 on its last day), or null when the company is not on trial: no trial, the
 * trial is over, or a payment moved the due date past the trial's end (the server's rule in
 * modules/usage/usage.service.ts).
 */
export const trialDaysLeft = (
  company: Pick<TSessionUser['company'], 'trialExpiration' | 'dueDate'>,
  now = new Date(),
): number | null => {
  const ends = company.trialExpiration ? Date.parse(company.trialExpiration) : Number.NaN;
  if (Number.isNaN(ends) || ends <= now.getTime()) {
    return null;
  }
  if (company.dueDate && company.dueDate > localDay(new Date(ends))) {
    return null;
  }

  return Math.max(1, Math.ceil((ends - now.getTime()) / DAY_MS));
};
