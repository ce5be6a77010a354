import type { TRouteDecl } from './declare';

/**
 * The pay-only session (issue 13 item 4): past its company's due date an admin may still sign in, but only
 * to pay its way back. This is the one place that says which routes such a session reaches; every other
 * route answers 402 ERR_SUBSCRIPTION_EXPIRED (http/authenticate.ts). An attendant of that company cannot
 * sign in at all, and a session of theirs already open reaches only its logout.
 *
 * - the session itself: `/api/auth/*` (login and refresh are public or cookie routes, they decide alone);
 * - invoices, plans (reads) and checkout, by prefix, so the billing routes are covered as they are added:
 *   `/api/invoices…`, `GET /api/plans…`, `/api/subscription…`;
 * - routes that declare `allowExpired` (the user's language, the own company's reads the pay screens use).
 */
const PAY_ONLY_PREFIXES = ['/api/auth/', '/api/invoices', '/api/subscription'];
const PAY_ONLY_READ_PREFIXES = ['/api/plans'];

const underPrefix = (url: string, prefix: string) =>
  url === prefix || url.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

export const reachableWhenPayOnly = (method: string, url: string, decl: Pick<TRouteDecl, 'allowExpired'>) =>
  decl.allowExpired === true ||
  PAY_ONLY_PREFIXES.some((prefix) => underPrefix(url, prefix)) ||
  (method === 'GET' && PAY_ONLY_READ_PREFIXES.some((prefix) => underPrefix(url, prefix)));

/** what an attendant's session of an expired company still reaches */
export const reachableWhenExpiredAttendant = (method: string, url: string) =>
  method === 'DELETE' && url === '/api/auth/logout';
