import type { TTicketListQuery } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import {
  announcements,
  type TListChange,
  type TListPatch,
  type TListScope,
  type TPendingRows,
  type TTicketPlace,
} from './list-answers';
import { listRowsByIds, type TListTicket } from './ticket-list.repo';

/**
 * Kept ticket pages patched instead of read again (issue 23 item 2). A customer's message rewrites its ticket's
 * row (last message, time, unread count) where the ticket is; every agent list that may show the ticket used to
 * be read again for it (~1.5 ms of PostgreSQL each, three lists a message on the generated inbox). Now a kept
 * page notes the change (list-answers.ts), and the next request for it reads the changed rows (by id, ~0.1 ms)
 * and makes the page from its kept rows:
 *
 * - Only a first page without a filter a row change can turn (no search, no tags, no unread-only, no days) is
 *   patched: its members are exactly the tickets its scope admits (ticket-visibility.ts, the same rule as its
 *   SQL), so a ticket that stayed where it was stays a member or a non-member, and the count stays.
 * - The list's order is `updated_at desc, id desc` (ticket-list.repo.ts): the row goes where its new time puts
 *   it. A ticket that was past the page comes in ahead of a later row (the page's last one goes); one that
 *   stays past it changes nothing (the same bytes, so their compressed forms stay too).
 * - Anything a page cannot tell is read again (`undefined`): the ticket is not where the announcement said (it
 *   moved meanwhile: that move's own announcement drops the lists), not found (deleted, a flow test's),
 *   it would fall to the page's end while more follow (the next page's first row may come before it), it is
 *   new to a page that holds every member (it moved in), or its time equals a kept row's to the millisecond
 *   (the rows' times are milliseconds, the database orders microseconds: known only of the rows a patch read,
 *   so the tickets of one inbound batch, stamped with one time, are ordered by id as the database orders them).
 */

/** what a kept page holds, in the order of its bytes */
export type TKeptPage = { tickets: TListTicket[]; count: number; hasMore: boolean };

/** a kept page's rows beside its bytes (they go with them) */
const keptPages = new WeakMap<Buffer, TKeptPage>();

/**
 * Each kept row's JSON: a patched page writes its new row only (a page that can be patched weighs its bytes, its
 * rows and their JSON: ~80 KB for 40 tickets instead of ~26 KB; the others keep their bytes only).
 */
const rowJson = new WeakMap<TListTicket, string>();

const jsonOf = (row: TListTicket) => {
  let json = rowJson.get(row);
  if (json === undefined) {
    json = JSON.stringify(row);
    rowJson.set(row, json);
  }

  return json;
};

/**
 * A page's bytes as answered (`JSON.stringify({ tickets, count, hasMore })`, written row by row), its rows
 * remembered for a patch.
 */
export const pageBytes = (page: TKeptPage) => {
  const tickets = page.tickets.map(jsonOf).join(',');
  const bytes = Buffer.from(`{"tickets":[${tickets}],"count":${JSON.stringify(page.count)},"hasMore":${page.hasMore}}`);
  keptPages.set(bytes, page);

  return bytes;
};

/** can a change that rewrote a row where it is make this list gain or lose a ticket, or move it elsewhere? */
export const isPatchable = (query: TTicketListQuery) =>
  query.pageNumber === 1 &&
  !query.searchParam &&
  !query.tags?.length &&
  !query.withUnreadMessages &&
  !query.date &&
  !query.updatedAt;

const samePlace = (a: TTicketPlace, b: TTicketPlace) =>
  a.status === b.status && a.queueId === b.queueId && a.userId === b.userId;

/**
 * The microseconds past the millisecond of rows read by a patch (`updatedAt` has milliseconds; the list orders by
 * microseconds): two rows of one time to the millisecond are ordered only when both are known.
 */
const micros = new WeakMap<TListTicket, number>();

/** does `a` come before `b` in the list (updated_at desc, id desc)? `undefined`: cannot tell */
const before = (a: TListTicket, b: TListTicket) => {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt;
  const [ma, mb] = [micros.get(a), micros.get(b)];
  if (ma === undefined || mb === undefined) return undefined;

  return ma !== mb ? ma > mb : a.id > b.id;
};

/**
 * The page once `fresh` (the tickets' rows as they are now, where the announcement said) is in it; the kept page
 * itself when nothing it shows changed; `undefined` when the page cannot tell (read it again).
 */
export const patchPage = (
  kept: TKeptPage,
  fresh: Map<number, TListTicket>,
  change: TListChange & { rows: number[] },
  scope: TListScope,
  limit: number,
): TKeptPage | undefined => {
  let tickets = kept.tickets;
  for (const id of new Set(change.rows)) {
    const row = fresh.get(id);
    if (!row || !change.places.some((p) => samePlace(p, row))) return undefined;
    const at = tickets.findIndex((t) => t.id === id);
    const member = scope(row);
    if (at >= 0 && (!member || !samePlace(tickets[at]!, row))) return undefined;
    if (at < 0 && !member) continue;
    // every member is on the page: one more would be a ticket that moved in
    if (at < 0 && kept.count <= tickets.length) return undefined;
    const rest = at >= 0 ? tickets.filter((t) => t.id !== id) : tickets;
    if (rest.some((t) => before(row, t) === undefined)) return undefined;
    const place = rest.findIndex((t) => before(row, t));
    const more = kept.count > rest.length + 1;
    if (place < 0) {
      // past every kept row: the last of the page only when nothing follows it
      if (at < 0) continue;
      if (more) return undefined;
      tickets = [...rest, row];
      continue;
    }
    tickets = [...rest.slice(0, place), row, ...rest.slice(place)].slice(0, limit);
  }

  return tickets === kept.tickets ? kept : { tickets, count: kept.count, hasMore: kept.hasMore };
};

type TRowRead = Promise<Map<number, TListTicket>>;

/**
 * The changed rows. A row read after a change was announced serves every page that takes that change (a message
 * touches its attendant's lists and its queue's: one read, not three), so each row's last read is remembered with
 * the announcement it followed (`announcements()` when it was sent); the rows no remembered read serves are read
 * for the pages patched in the same turn of the event loop in one statement per company.
 */
type TRowReads = {
  /** by ticket: the last read of its row and the announcements heard before it was sent */
  last: Map<number, { after: number; read: TRowRead }>;
  /** by company: the ids to read at the end of this turn */
  batches: Map<number, { ids: Set<number>; read: TRowRead }>;
};
const rowReads = new WeakMap<TDbOrTx, TRowReads>();
/** rows remembered at most (a read is a few hundred bytes; the map is emptied past this) */
const MAX_REMEMBERED_ROWS = 5_000;

const changedRows = async (db: TDbOrTx, companyId: number, change: TPendingRows) => {
  let reads = rowReads.get(db);
  if (!reads) {
    reads = { last: new Map(), batches: new Map() };
    rowReads.set(db, reads);
  }
  const { last, batches } = reads;
  const used = new Set<TRowRead>();
  for (const id of new Set(change.rows)) {
    const known = last.get(id);
    if (known && known.after >= change.seq) {
      used.add(known.read);
      continue;
    }
    let batch = batches.get(companyId);
    if (!batch) {
      const ids = new Set<number>();
      const read: TRowRead = new Promise<void>((start) => queueMicrotask(start)).then(async () => {
        batches.delete(companyId);
        const after = announcements();
        if (last.size > MAX_REMEMBERED_ROWS) last.clear();
        for (const id of ids) last.set(id, { after, read });
        const rows = await listRowsByIds(db, companyId, [...ids]);
        for (const r of rows) micros.set(r.ticket, r.micros);

        return new Map(rows.map((r) => [r.ticket.id, r.ticket]));
      });
      // a failed read serves no later patch
      read.catch(() => {
        for (const id of ids) if (last.get(id)?.read === read) last.delete(id);
      });
      batch = { ids, read };
      batches.set(companyId, batch);
    }
    batch.ids.add(id);
    used.add(batch.read);
  }
  const fresh = new Map<number, TListTicket>();
  for (const rows of await Promise.all(used)) for (const [id, row] of rows) fresh.set(id, row);

  return fresh;
};

/** the patch of a kept page of `query` (list-answers.ts `TListPatch`), or none when the list cannot take one */
export const ticketPagePatch = (
  db: TDbOrTx,
  companyId: number,
  query: TTicketListQuery,
  scope: TListScope,
  limit: number,
): TListPatch<Buffer> | undefined => {
  if (!isPatchable(query)) return undefined;

  return (bytes, change) => {
    const kept = keptPages.get(bytes);
    if (!kept) return undefined;

    return changedRows(db, companyId, change).then((fresh) => {
      const next = patchPage(kept, fresh, change, scope, limit);
      if (!next) return undefined;

      return next === kept ? bytes : pageBytes(next);
    });
  };
};
