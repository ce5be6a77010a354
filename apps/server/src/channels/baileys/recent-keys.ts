import type { TWAKey } from './baileys.types';

/**
 * The keys (and contents) of the latest messages a session saw or sent, so a quote, a delete or a read
 * receipt names the right one (group member, fromMe), and the ids it sent, so their echoes are never
 * taken for inbound messages. Both keep the newest `limit` entries.
 */

export type TKnownMessage = TWAKey & { message?: Record<string, unknown> };

export const createRecentKeys = (limit = 500) => {
  const seen = new Map<string, TKnownMessage>();
  const sent = new Set<string>();

  return {
    remember: (key: TWAKey, message?: Record<string, unknown> | null) => {
      if (!key.id) return;
      seen.delete(key.id);
      seen.set(key.id, { ...key, message: message ?? undefined });
      if (seen.size > limit) seen.delete(seen.keys().next().value as string);
    },
    get: (id: string) => seen.get(id),
    markSent: (id: string) => {
      sent.add(id);
      if (sent.size > limit) sent.delete(sent.values().next().value as string);
    },
    isSent: (id: string | null | undefined) => !!id && sent.has(id),
  };
};

export type TRecentKeys = ReturnType<typeof createRecentKeys>;
