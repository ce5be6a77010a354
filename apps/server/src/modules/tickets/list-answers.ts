/**
 * The ticket list's answers, kept as the bytes sent until the company's next announced change.
 *
 * Agents' screens ask for the same lists over and over (every tab, every reconnect, every agent of a
 * shift opening the inbox) while nothing changes; each answer costs a statement that counts thousands of
 * tickets. An answer is kept under the exact statement it ran (its text and values name the company, the
 * viewer's queues and user, every filter and the page), so two requests share it only when they would
 * have run the same statement.
 *
 * What changes a list is announced: every write that a screen must see is followed, once its transaction
 * has committed, by an event to a `company-{id}-…` room (realtime.ts calls `changed` before it emits, on
 * this node; app.ts sends it to the other nodes first through the same Redis connection as the event, so a
 * peer has forgotten before its sockets hear of the change). A change makes every kept answer of its
 * company stale (a count per company: kept answers carry the count they were read under). An answer read
 * while a change was announced is not kept: it may hold the rows from before it. A write that is never
 * announced (a direct SQL edit) is seen after `ttlMs` at most.
 *
 * Requests that arrive while the same statement is being read wait for that read (one read, not twenty).
 *
 * The conversation page keeps its answers the same way, in an instance of its own (`conversationAnswers`, see
 * messages.service.ts `listMessages`), so open conversations never push the lists out.
 */

type TEntry<T> = { companyId: number; clock: number; until: number; answer: Promise<T> };

export type TListAnswers<T = Buffer> = {
  /** the kept answer of this statement, or `load`'s, kept when nothing changed meanwhile */
  answer: (companyId: number, key: string, load: () => Promise<T>) => Promise<T>;
  /** something of this company was announced: its kept answers are stale (this node only) */
  changed: (companyId: number) => void;
  size: () => number;
};

export const LIST_ANSWERS_TTL_MS = 3_000;
/** answers of 40 tickets weigh about 30 KB: at most this many are kept, the oldest dropped first */
const MAX_ENTRIES = 1_000;

export const createListAnswers = <T = Buffer>(
  opts: { ttlMs?: number; maxEntries?: number; enabled?: boolean } = {},
) => {
  const ttlMs = opts.ttlMs ?? LIST_ANSWERS_TTL_MS;
  const maxEntries = opts.maxEntries ?? MAX_ENTRIES;
  /** changes announced per company (absent: none since start) */
  const clocks = new Map<number, number>();
  /** in insertion order: the first is the oldest */
  const entries = new Map<string, TEntry<T>>();
  const clockOf = (companyId: number) => clocks.get(companyId) ?? 0;

  const keep = (key: string, entry: TEntry<T>) => {
    entries.delete(key);
    if (entries.size >= maxEntries) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    entries.set(key, entry);
  };

  const answers: TListAnswers<T> = {
    answer: (companyId, key, load) => {
      if (opts.enabled === false) return load();
      const clock = clockOf(companyId);
      const kept = entries.get(key);
      if (kept && kept.clock === clock && kept.until > Date.now()) return kept.answer;
      const answer = load();
      const entry = { companyId, clock, until: Date.now() + ttlMs, answer };
      keep(key, entry);
      answer.then(
        () => {
          // read across a change: it may hold rows from before it
          if (clockOf(companyId) !== clock && entries.get(key) === entry) entries.delete(key);
        },
        () => {
          if (entries.get(key) === entry) entries.delete(key);
        },
      );

      return answer;
    },
    changed: (companyId) => {
      clocks.set(companyId, clockOf(companyId) + 1);
    },
    size: () => entries.size,
  };

  return answers;
};
