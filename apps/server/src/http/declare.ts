import type { TPlanFlag } from '@zelo/shared';
import type { TRateLimitName } from './rate-limits';

/**
 * Who may call a route:
 * - public: anybody; refresh: the refresh cookie (checked by the route itself);
 * - user / admin / super: a session of a user with that power;
 * - token: a connection API token (external API);
 * - metrics: the operator's `METRICS_TOKEN` as a bearer (`GET /metrics`, outside /api; 404 while it is unset).
 */
export type TAuthKind = 'public' | 'refresh' | 'user' | 'admin' | 'super' | 'token' | 'metrics';

export type TRouteDecl = {
  auth: TAuthKind;
  /** plan flag the caller's company must have */
  plan?: TPlanFlag;
  /** still callable when the company is past its due date (session, billing) */
  allowExpired?: boolean;
  /** the limits of `http/rate-limits.ts` this route passes (applied by `http/rate-limit-hook.ts`) */
  rateLimit?: TRateLimitName;
  /**
   * the body is what a channel delivered (the sandbox's simulated customer): its text is cleaned where it
   * is stored, never refused, so http/input-guard.ts lets NUL and lone surrogates through in it
   */
  channelText?: boolean;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    decl?: TRouteDecl;
  }
}

/** Every /api route (and `GET /metrics`) passes its declaration through here: `{ config: route({ auth: 'admin' }) }`. */
export const route = (decl: TRouteDecl) => ({ decl });

export type TDeclaredRoute = { method: string; url: string; decl: TRouteDecl | undefined };
