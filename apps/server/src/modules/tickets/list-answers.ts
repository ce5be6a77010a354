/**
 * The ticket list's answers, kept as the bytes sent until an announced change can touch them.
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
 * peer has forgotten before its sockets hear of the change). An announcement says what it may have changed
 * (`TListChange`): the tickets whose list rows changed, each at the place it was and the place it is
 * (status, queue, attendant), or nothing said, which is anything of the company (a contact, queue, user,
 * connection or tag renamed, a setting…). An answer kept with a scope (`TListScope`: may a ticket at this
 * place be in this list?) is made stale only by a change of a ticket its scope admits or by an unsaid one;
 * one without a scope (the dashboard, the conversation pages) by every change of its company. So a customer
 * writing on a ticket of one queue leaves the lists of the other queues' agents, and other attendants' own
 * lists, as they were. Stale answers are dropped at once, read or being read: an answer read while a change
 * that touches it was announced is not kept (it may hold the rows from before it), and a request made after
 * the announcement never shares that read. A write that is never announced (a direct SQL edit) is seen
 * after `ttlMs` at most.
 *
 * Requests that arrive while the same statement is being read wait for that read (one read, not twenty).
 *
 * The conversation page keeps its answers the same way, in an instance of its own (`conversationAnswers`, see
 * messages.service.ts `listMessages`), so open conversations never push the lists out.
 */

/** where a ticket is, as the lists' rules see it */
export type TTicketPlace = { status: string; queueId: number | null; userId: number | null };

/**
 * What an announcement may have changed: the list rows of these tickets, each at every place it was or is
 * (a ticket that moved is named at both). An empty list: nothing a ticket list shows (a message's receipt).
 */
export type TListChange = { places: TTicketPlace[] };

/** may a ticket at this place be in the kept answer (and so a change of it touch the answer)? */
export type TListScope = (place: TTicketPlace) => boolean;

type TEntry<T> = { companyId: number; key: string; until: number; scope?: TListScope; answer: Promise<T> };

export type TListAnswers<T = Buffer> = {
  /**
   * the kept answer of this statement, or `load`'s, kept until a change its `scope` admits (every change of
   * the company when none is given)
   */
  answer: (companyId: number, key: string, load: () => Promise<T>, scope?: TListScope) => Promise<T>;
  /** something of this company was announced (`change`, or anything when absent): what it touches is stale (this node only) */
  changed: (companyId: number, change?: TListChange) => void;
  size: () => number;
};

export const LIST_ANSWERS_TTL_MS = 3_000;
/** answers of 40 tickets weigh about 30 KB: at most this many are kept, the oldest dropped first */
const MAX_ENTRIES = 1_000;

/** does the change touch an answer of this scope? */
const touches = (scope: TListScope | undefined, change: TListChange | undefined) =>
  !scope || !change || change.places.some(scope);

export const createListAnswers = <T = Buffer>(
  opts: { ttlMs?: number; maxEntries?: number; enabled?: boolean } = {},
) => {
  const ttlMs = opts.ttlMs ?? LIST_ANSWERS_TTL_MS;
  const maxEntries = opts.maxEntries ?? MAX_ENTRIES;
  /** in insertion order: the first is the oldest */
  const entries = new Map<string, TEntry<T>>();
  /** the same entries by company, for a change to walk its company's answers only */
  const byCompany = new Map<number, Set<TEntry<T>>>();

  const drop = (entry: TEntry<T>) => {
    if (entries.get(entry.key) === entry) entries.delete(entry.key);
    const own = byCompany.get(entry.companyId);
    own?.delete(entry);
    if (own?.size === 0) byCompany.delete(entry.companyId);
  };

  const keep = (entry: TEntry<T>) => {
    const previous = entries.get(entry.key);
    if (previous) drop(previous);
    if (entries.size >= maxEntries) {
      const oldest = entries.values().next();
      if (!oldest.done) drop(oldest.value);
    }
    entries.set(entry.key, entry);
    const own = byCompany.get(entry.companyId);
    if (own) own.add(entry);
    else byCompany.set(entry.companyId, new Set([entry]));
  };

  const answers: TListAnswers<T> = {
    answer: (companyId, key, load, scope) => {
      if (opts.enabled === false) return load();
      const kept = entries.get(key);
      if (kept && kept.companyId === companyId && kept.until > Date.now()) return kept.answer;
      const answer = load();
      const entry: TEntry<T> = { companyId, key, until: Date.now() + ttlMs, scope, answer };
      keep(entry);
      // a failed read is not kept (one dropped meanwhile by a change is gone already)
      answer.catch(() => drop(entry));

      return answer;
    },
    changed: (companyId, change) => {
      const own = byCompany.get(companyId);
      if (!own) return;
      for (const entry of [...own]) if (touches(entry.scope, change)) drop(entry);
    },
    size: () => entries.size,
  };

  return answers;
};
