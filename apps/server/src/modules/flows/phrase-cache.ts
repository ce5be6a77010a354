import { normalisePhrase } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import { activePhrases } from './flows.repo';

/**
 * The active phrase campaigns of each connection, normalised for matching, cached per company and
 * connection: dropped on every write of this process (phrase campaigns, flows) and after a few seconds
 * (a write on another node). The trigger and the fast path's "could a stage act?" read it.
 */

type TEntry = { at: number; phrases: { flowId: number; phrase: string }[] };

const TTL_MS = 5_000;
const cache = new Map<string, TEntry>();

export const invalidatePhrases = (companyId: number) => {
  for (const key of cache.keys()) if (key.startsWith(`${companyId}:`)) cache.delete(key);
};

export const phrasesOf = async (db: TDbOrTx, companyId: number, connectionId: number) => {
  const key = `${companyId}:${connectionId}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.phrases;
  const rows = await activePhrases(db, companyId, connectionId);
  const phrases = rows.map((r) => ({ flowId: r.flowId, phrase: normalisePhrase(r.phrase) }));
  if (cache.size > 10_000) cache.clear();
  cache.set(key, { at: Date.now(), phrases });

  return phrases;
};

/** the flow a whole message starts on this connection (the first active campaign whose phrase it equals) */
export const flowForPhrase = async (db: TDbOrTx, companyId: number, connectionId: number, body: string) => {
  const text = normalisePhrase(body);
  if (!text) return null;

  return (await phrasesOf(db, companyId, connectionId)).find((p) => p.phrase === text)?.flowId ?? null;
};
