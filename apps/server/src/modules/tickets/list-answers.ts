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
 * A change that only rewrote some tickets' rows where they are (`TListChange.rows`: a message stored, an unread
 * count reset; nothing moved) is the most frequent one by far, a customer's every message. An answer kept with a
 * `patch` (the first page of a ticket list that no such change can make gain or lose a ticket, list-patch.ts)
 * takes it instead of being dropped: the patch reads the changed rows once (one statement for every answer the
 * change touches) and makes the new answer from the kept one (the row moved to its place, the count unchanged).
 * The entry notes the change when it is announced, before the event leaves, and the first request after it
 * patches it in before it is answered (the rows read then, after the announcement): no request made after the
 * announcement gets the kept answer, the changes announced between two requests make one patch, and an answer
 * nobody asks for again costs nothing. A change that comes while a patch is under way is patched in after it
 * (with its own read of the rows). An answer still being first read when such a change comes is dropped, as for
 * any change; a patch that finds it cannot (the row moved meanwhile, a tie in the order) reads the whole answer
 * again.
 *
 * An answer asked for close to the end of its time to live (closer than twice its read took, plus 50 ms; at most
 * half its time) is read again in the background while it is still handed out, so requests never queue behind
 * a costly read only because time passed (the kanban's whole answer: ~0.4 s for 19,000 cards). The new read
 * replaces it only when nothing was announced about it meanwhile (not dropped, no rows pending or patched in);
 * it lives `ttlMs` from the moment it began, so an unannounced write is still seen after `ttlMs` at most.
 *
 * The conversation page keeps its answers the same way, in an instance of its own (`conversationAnswers`, see
 * messages.service.ts `listMessages`), so open conversations never push the lists out.
 */

/** where a ticket is, as the lists' rules see it */
export type TTicketPlace = { status: string; queueId: number | null; userId: number | null };

/**
 * What an announcement may have changed: the list rows of these tickets, each at every place it was or is
 * (a ticket that moved is named at both). An empty list: nothing a ticket list shows (a message's receipt).
 * `rows`: the ids of the tickets whose rows changed while they stayed where they are (`places` is where they
 * are): a kept answer with a patch may take the change instead of being dropped.
 */
export type TListChange = { places: TTicketPlace[]; rows?: number[] };

/** may a ticket at this place be in the kept answer (and so a change of it touch the answer)? */
export type TListScope = (place: TTicketPlace) => boolean;

/**
 * How a kept answer takes a change of `rows`: the promise of the new answer, or `undefined` (at once or in the
 * promise) when it cannot: the whole answer is read again then.
 */
export type TListPatch<T> = (kept: T, change: TPendingRows) => Promise<T | undefined> | undefined;

/** changes of rows a kept answer has yet to take; `seq`: the announcement (`announcements()`) of the last one */
export type TPendingRows = TListChange & { rows: number[]; seq: number };

/** announcements heard by this process so far (a read begun when this was n is newer than announcement n) */
let heard = 0;
export const announcements = () => heard;

type TEntry<T> = {
  companyId: number;
  key: string;
  until: number;
  scope?: TListScope;
  patch?: TListPatch<T>;
  load: () => Promise<T>;
  answer: Promise<T>;
  /** the answer once read (or patched): what a patch starts from; absent while it is being made */
  settled?: { value: T };
  /** the answer is being patched (a change of rows may follow on from it, not so a first read) */
  patching?: boolean;
  /** the changes of rows announced since, which the next request patches in before it is answered */
  pending?: TPendingRows;
  /** how long its read took (ms), once read: how early before its time is up it is read again */
  readMs?: number;
  /** a read made ahead of its time running out is under way */
  refreshing?: boolean;
};

export type TListAnswers<T = Buffer> = {
  /**
   * the kept answer of this statement, or `load`'s, kept until a change its `scope` admits (every change of
   * the company when none is given)
   */
  answer: (
    companyId: number,
    key: string,
    load: () => Promise<T>,
    scope?: TListScope,
    /** how the answer takes a change of rows instead of being dropped */
    patch?: TListPatch<T>,
  ) => Promise<T>;
  /**
   * something of this company was announced (`change`, or anything when absent): what it touches is stale, or
   * patched (this node only)
   */
  changed: (companyId: number, change?: TListChange) => void;
  size: () => number;
  /** answers patched (and dropped) by changes since the start, for tests and benchmarks */
  counts: () => { patched: number; dropped: number };
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

  /** the entry's answer from now on; once read it is what a patch starts from (a failed one is not kept) */
  const settle = (entry: TEntry<T>, answer: Promise<T>, patching = false) => {
    entry.answer = answer;
    entry.settled = undefined;
    entry.patching = patching;
    answer.then(
      (value) => {
        if (entry.answer !== answer) return;
        entry.settled = { value };
        entry.patching = false;
      },
      () => {
        if (entry.answer === answer) drop(entry);
      },
    );
  };

  /**
   * The entry patched with the changes of rows announced since it was read (or last patched): from its kept answer,
   * or once the patch under way is done (that one read its rows before these changes were announced). Made when a
   * request asks for it, so many changes between two requests make one patch, and none is made for an answer
   * nobody asks for again. What the patch cannot take, or a failed patch, reads the whole answer again.
   */
  const patchPending = (entry: TEntry<T>) => {
    const change = entry.pending!;
    entry.pending = undefined;
    const patch = entry.patch!;
    const load = entry.load;
    const next = entry.answer
      .then((value) => patch(value, change))
      .then((value) => value ?? load())
      .catch(() => load());
    settle(entry, next, true);
  };

  /**
   * Reads the entry again while it is handed out; the read replaces it if the entry is still the one kept and took
   * no change meanwhile (a change that touched it dropped it or left rows pending, or a patch made a new answer).
   */
  const refresh = (entry: TEntry<T>) => {
    entry.refreshing = true;
    const from = entry.answer;
    const startedAt = Date.now();
    const read = entry.load();
    read.then(
      (value) => {
        entry.refreshing = false;
        if (entries.get(entry.key) !== entry || entry.answer !== from || entry.pending || entry.patching) return;
        const { companyId, key, scope, patch, load } = entry;
        keep({
          companyId,
          key,
          scope,
          patch,
          load,
          until: startedAt + ttlMs,
          answer: read,
          settled: { value },
          readMs: Date.now() - startedAt,
        });
      },
      () => {
        entry.refreshing = false;
      },
    );
  };

  /** read again ahead when asked for this close to its time running out */
  const refreshMargin = (entry: TEntry<T>) => Math.min(ttlMs / 2, 2 * (entry.readMs ?? 0) + 50);

  const counts = { patched: 0, dropped: 0 };

  const answers: TListAnswers<T> = {
    answer: (companyId, key, load, scope, patch) => {
      if (opts.enabled === false) return load();
      const now = Date.now();
      const kept = entries.get(key);
      if (kept && kept.companyId === companyId && kept.until > now) {
        if (kept.pending) patchPending(kept);
        else if (kept.settled && !kept.patching && !kept.refreshing && kept.until - now < refreshMargin(kept))
          refresh(kept);
        return kept.answer;
      }
      const answer = load();
      const entry: TEntry<T> = { companyId, key, until: now + ttlMs, scope, patch, load, answer };
      keep(entry);
      settle(entry, answer);
      answer.then(
        () => {
          entry.readMs = Date.now() - now;
        },
        () => undefined,
      );

      return answer;
    },
    changed: (companyId, change) => {
      const seq = ++heard;
      const own = byCompany.get(companyId);
      if (!own) return;
      for (const entry of [...own]) {
        if (!touches(entry.scope, change)) continue;
        const rows = change?.rows;
        if (change && rows?.length && entry.patch && (entry.pending || entry.settled || entry.patching)) {
          // from now on a request patches them in before it is answered
          counts.patched++;
          if (entry.pending) {
            entry.pending.places.push(...change.places);
            entry.pending.rows.push(...rows);
            entry.pending.seq = seq;
          } else entry.pending = { places: [...change.places], rows: [...rows], seq };
          continue;
        }
        // any other change, or one while the answer is first read (that read may be from before it)
        counts.dropped++;
        drop(entry);
      }
    },
    size: () => entries.size,
    counts: () => ({ ...counts }),
  };

  return answers;
};
