import type { TAppContext } from '../../../lib/context';
import { outboundFetch, type TOutboundInit } from '../../../lib/outbound';
import { isMaskedSecret, maskStoredSecret, openSecret as open, sealSecret as seal } from '../../../lib/secrets';

/**
 * The integrations' two doors to the outside (issue 14's shared contract, lib/outbound.ts and lib/secrets.ts):
 * every call to a tenant-configured URL (Typebot, n8n, webhooks, Dialogflow, Google's token endpoint, media
 * named by a bot) passes the SSRF guard; every stored secret (Dialogflow's service-account JSON, webhook keys)
 * is sealed at rest and masked on reads.
 */
export const callOut = (_ctx: TAppContext, url: string, init: TOutboundInit = {}): Promise<Response> =>
  outboundFetch(url, { timeoutMs: 15_000, ...init });

export const sealSecret = (_ctx: TAppContext, plain: string) => seal(plain);
export const openSecret = (_ctx: TAppContext, stored: string) => open(stored);
/** a stored (sealed) secret as reads show it */
export const maskStored = (stored: string) => maskStoredSecret(stored);
export const isMasked = (value: string) => isMaskedSecret(value);
