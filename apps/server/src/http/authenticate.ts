import { createHash, timingSafeEqual } from 'node:crypto';
import type { TPlanFlag, TProfile } from '@zelo/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { TDb } from '../db/client';
import { isPastDue } from '../lib/dates';
import { findSessionPrincipal } from '../modules/auth/auth.repo';
import type { TSessionCache } from '../modules/auth/session-cache';
import type { TTokenService } from '../modules/auth/tokens';
import type { TDeclaredRoute, TRouteDecl } from './declare';
import { reachableWhenExpiredAttendant, reachableWhenPayOnly } from './pay-only';
import { AppError } from './errors';

/** The caller of an authenticated request. Every service takes its companyId from here, never from input. */
export type TAuth = {
  userId: number;
  companyId: number;
  sessionId: string;
  profile: TProfile;
  isAdmin: boolean;
  isSuper: boolean;
  allTicket: string;
  planFlags: Record<TPlanFlag, boolean>;
  company: { status: boolean; dueDate: string | null; timezone: string };
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: TAuth;
  }
}

export const bearerToken = (request: FastifyRequest) => {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');

  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
};

const NO_FLAGS = {
  useCampaigns: false,
  useSchedules: false,
  useInternalChat: false,
  useExternalApi: false,
  useKanban: false,
  useOpenAi: false,
  useIntegrations: false,
};

/**
 * Verifies an access token and loads its principal (kept a few seconds in `sessions`, forgotten by every
 * change to it); shared by HTTP and the socket handshake.
 */
export const resolveAccessToken = async (
  deps: { db: TDb; tokens: TTokenService; sessions: TSessionCache },
  token: string | undefined,
): Promise<TAuth> => {
  if (!token) throw new AppError('ERR_NOT_AUTHENTICATED', 'Missing token');
  const claims = deps.tokens.verifyAccess(token);
  if (claims === 'expired') throw new AppError('ERR_SESSION_EXPIRED', 'Session expired');
  if (claims === 'invalid') throw new AppError('ERR_NOT_AUTHENTICATED', 'Invalid token');
  const principal = await deps.sessions.principal(claims.sid, () =>
    findSessionPrincipal(deps.db, claims.sid, claims.sub),
  );
  if (!principal || principal.userId !== claims.sub || principal.companyId !== claims.cid) {
    throw new AppError('ERR_NOT_AUTHENTICATED', 'Invalid token');
  }
  if (principal.revokedAt) throw new AppError('ERR_SESSION_REVOKED', 'This session was ended');

  return {
    userId: principal.userId,
    companyId: principal.companyId,
    sessionId: principal.sessionId,
    profile: principal.profile as TProfile,
    isAdmin: principal.profile === 'admin' || principal.isSuper,
    isSuper: principal.isSuper,
    allTicket: principal.allTicket,
    planFlags: principal.plan?.useCampaigns == null ? NO_FLAGS : principal.plan,
    company: { status: principal.companyStatus, dueDate: principal.dueDate, timezone: principal.timezone },
  };
};

/** where a session of an expired company may still go (http/pay-only.ts), worked out once per route */
type TExpiredReach = { payOnly: Set<string>; attendant: Set<string> };

const authorize = (auth: TAuth, decl: TRouteDecl, method: string, reach: TExpiredReach) => {
  if (!auth.isSuper) {
    const { company } = auth;
    if (!company.status) throw new AppError('ERR_COMPANY_INACTIVE', 'This company is inactive');
    if (isPastDue(company.dueDate, company.timezone)) {
      const allowed = auth.isAdmin ? reach.payOnly : reach.attendant;
      if (!allowed.has(method)) {
        throw new AppError(
          'ERR_SUBSCRIPTION_EXPIRED',
          `Your subscription expired on ${company.dueDate}. Contact support.`,
        );
      }
    }
  }
  if (decl.auth === 'admin' && !auth.isAdmin) throw new AppError('ERR_NO_PERMISSION', 'Admins only');
  if (decl.auth === 'super' && !auth.isSuper) throw new AppError('ERR_NO_PERMISSION', 'Super users only');
  if (decl.plan && !auth.planFlags[decl.plan]) {
    throw new AppError('ERR_PLAN_FEATURE_DISABLED', `The plan does not include ${decl.plan}`);
  }
};

/** the Prometheus scrape path (modules/ops), declared like the /api routes */
export const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** the operator's scrape token, compared in constant time; no token configured: the route does not exist */
const metricsGuard =
  (token: string | undefined): onRequestHookHandler =>
  async (request) => {
    if (!token) throw new AppError('ERR_ROUTE_NOT_FOUND', 'Not found');
    const given = bearerToken(request);
    if (!given || !timingSafeEqual(digest(given), digest(token))) {
      throw new AppError('ERR_NOT_AUTHENTICATED', 'Missing or wrong metrics token');
    }
  };

/**
 * Installs the declaration rule: every /api route must declare its auth (an undeclared one stops the
 * server from starting), and gets the matching authentication hook. The list feeds the route test.
 */
export const installRouteDeclarations = (
  app: FastifyInstance,
  deps: {
    db: TDb;
    tokens: TTokenService;
    sessions: TSessionCache;
    tokenAuth?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** METRICS_TOKEN: what a `metrics` route's bearer must be; unset, such a route is not found */
    metricsToken?: string;
  },
) => {
  const declared: TDeclaredRoute[] = [];
  app.decorate('declaredRoutes', declared);
  app.decorateRequest('auth', null as unknown as TAuth);

  app.addHook('onRoute', (routeOptions) => {
    const isApi = routeOptions.url.startsWith('/api') && !routeOptions.url.startsWith('/api/docs');
    if (!isApi && routeOptions.url !== METRICS_PATH) return;
    const decl = routeOptions.config?.decl;
    const methods = Array.isArray(routeOptions.method) ? routeOptions.method : [routeOptions.method];
    for (const method of methods) {
      if (method !== 'HEAD') declared.push({ method, url: routeOptions.url, decl });
    }
    if (!decl) throw new Error(`Route ${routeOptions.method} ${routeOptions.url} has no auth declaration`);
    if (decl.auth === 'public' || decl.auth === 'refresh') return;
    const reach: TExpiredReach = {
      payOnly: new Set(methods.filter((m) => reachableWhenPayOnly(m, routeOptions.url, decl))),
      attendant: new Set(methods.filter((m) => reachableWhenExpiredAttendant(m, routeOptions.url))),
    };

    if (decl.auth === 'metrics') {
      routeOptions.onRequest = [metricsGuard(deps.metricsToken), ...[routeOptions.onRequest ?? []].flat()];
      return;
    }
    const hook: onRequestHookHandler =
      decl.auth === 'token'
        ? async (request, reply) => {
            if (!deps.tokenAuth) throw new AppError('ERR_NOT_AUTHENTICATED');
            await deps.tokenAuth(request, reply);
            // an API token's company past its due date is paused like its sessions
            const company = (request.auth as TAuth | null)?.company;
            if (company && isPastDue(company.dueDate, company.timezone)) {
              throw new AppError('ERR_SUBSCRIPTION_EXPIRED', `Your subscription expired on ${company.dueDate}.`);
            }
          }
        : async (request) => {
            const auth = await resolveAccessToken(deps, bearerToken(request));
            authorize(auth, decl, request.method, reach);
            request.auth = auth;
          };
    const existing = routeOptions.onRequest;
    routeOptions.onRequest = existing ? [hook, ...(Array.isArray(existing) ? existing : [existing])] : [hook];
  });
};

declare module 'fastify' {
  interface FastifyInstance {
    declaredRoutes: TDeclaredRoute[];
  }
}
