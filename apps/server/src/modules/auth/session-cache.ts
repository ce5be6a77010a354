/**
 * What every authenticated request reads before its own work, kept in memory for a few seconds: the
 * session's principal (session, user, company, plan: http/authenticate.ts), the ticket viewer (user
 * and queue ids: modules/tickets/ticket-access.ts), and a company's status and due date for the automatic
 * work (modules/companies/company-active.ts).
 *
 * Whatever changes them forgets them (`forget`) once its transaction has committed: a revoked session, a
 * user edited or deleted (profile, queues, password), a company edited or deleted, a plan edited. On
 * several nodes the forget goes to every other node through the Socket.IO adapter and is answered before
 * the change's request returns, so no node serves a principal older than a change another node
 * acknowledged (a node that does not answer in time keeps it at most `ttlMs`).
 *
 * A load that was under way while something was forgotten is not kept (a generation count): it may have
 * read the rows from before the change.
 */

export type TForgetScope = { userId: number } | { companyId: number } | { all: true };

type TEntry<T> = { value: T; until: number; companyId: number; userId: number };

export type TSessionCache = {
  /** the principal of a session, loaded by `load` when not kept (`null`, not found, is not kept) */
  principal: <T extends { companyId: number; userId: number }>(
    sessionId: string,
    load: () => Promise<T | null>,
  ) => Promise<T | null>;
  viewer: <T>(companyId: number, userId: number, load: () => Promise<T>) => Promise<T>;
  /** a company's own row as a check needs it (companies/company-active.ts), forgotten with the company */
  company: <T>(companyId: number, load: () => Promise<T>) => Promise<T>;
  /** forgets here and on every other node; resolves once they answered (or after `peerTimeoutMs`) */
  forget: (scope: TForgetScope) => Promise<void>;
  /** forgets on this node only (a peer's message) */
  forgetHere: (scope: TForgetScope) => void;
  /** how forgets reach the other nodes (set when the Socket.IO adapter spans nodes) */
  setPeers: (peers: { publish: (scope: TForgetScope) => Promise<unknown> } | null) => void;
  size: () => { principals: number; viewers: number };
};

export const SESSION_CACHE_TTL_MS = 5_000;
/** past this many entries a map is emptied rather than grown */
const MAX_ENTRIES = 50_000;

export const createSessionCache = (
  opts: { ttlMs?: number; peerTimeoutMs?: number; onPeerError?: (err: unknown) => void } = {},
): TSessionCache => {
  const ttlMs = opts.ttlMs ?? SESSION_CACHE_TTL_MS;
  const peerTimeoutMs = opts.peerTimeoutMs ?? 3_000;
  const principals = new Map<string, TEntry<unknown>>();
  const viewers = new Map<string, TEntry<unknown>>();
  const companies = new Map<string, TEntry<unknown>>();
  let generation = 0;
  let peers: { publish: (scope: TForgetScope) => Promise<unknown> } | null = null;

  const read = <T>(map: Map<string, TEntry<unknown>>, key: string) => {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry as TEntry<T>;
    map.delete(key);

    return undefined;
  };
  const keep = (map: Map<string, TEntry<unknown>>, key: string, entry: TEntry<unknown>) => {
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, entry);
  };

  const forgetHere = (scope: TForgetScope) => {
    generation++;
    if ('all' in scope) {
      principals.clear();
      viewers.clear();
      companies.clear();
      return;
    }
    if ('companyId' in scope) companies.delete(String(scope.companyId));
    const matches = (e: TEntry<unknown>) =>
      'userId' in scope ? e.userId === scope.userId : e.companyId === scope.companyId;
    for (const map of [principals, viewers]) {
      for (const [key, entry] of map) if (matches(entry)) map.delete(key);
    }
  };

  return {
    principal: async (sessionId, load) => {
      const kept = read<Awaited<ReturnType<typeof load>>>(principals, sessionId);
      if (kept) return kept.value;
      const started = generation;
      const value = await load();
      if (value && started === generation) {
        keep(principals, sessionId, {
          value,
          until: Date.now() + ttlMs,
          companyId: value.companyId,
          userId: value.userId,
        });
      }

      return value;
    },
    viewer: async (companyId, userId, load) => {
      const key = `${companyId}:${userId}`;
      const kept = read<Awaited<ReturnType<typeof load>>>(viewers, key);
      if (kept) return kept.value;
      const started = generation;
      const value = await load();
      if (started === generation) keep(viewers, key, { value, until: Date.now() + ttlMs, companyId, userId });

      return value;
    },
    company: async (companyId, load) => {
      const key = String(companyId);
      const kept = read<Awaited<ReturnType<typeof load>>>(companies, key);
      if (kept) return kept.value;
      const started = generation;
      const value = await load();
      if (started === generation) keep(companies, key, { value, until: Date.now() + ttlMs, companyId, userId: 0 });

      return value;
    },
    forget: async (scope) => {
      forgetHere(scope);
      if (!peers) return;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          peers.publish(scope),
          new Promise((_, fail) => {
            timer = setTimeout(() => fail(new Error('session cache: peers did not answer')), peerTimeoutMs);
          }),
        ]);
      } catch (err) {
        opts.onPeerError?.(err);
      } finally {
        clearTimeout(timer);
      }
    },
    forgetHere,
    setPeers: (next) => {
      peers = next;
    },
    size: () => ({ principals: principals.size, viewers: viewers.size }),
  };
};
