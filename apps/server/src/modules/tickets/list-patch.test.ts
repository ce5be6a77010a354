import { describe, expect, it } from 'vitest';
import type { TTicketPlace } from './list-answers';
import { isPatchable, pageBytes, patchPage, type TKeptPage } from './list-patch';
import type { TListTicket } from './ticket-list.repo';

/** a list row with what the patch reads (id, place, time, last message) */
const row = (id: number, minute: number, place: Partial<TTicketPlace> = {}, lastMessage = `m${id}`) =>
  ({
    id,
    status: 'open',
    queueId: 1,
    userId: 7,
    ...place,
    lastMessage,
    updatedAt: `2026-11-28T10:${String(minute).padStart(2, '0')}:00.000Z`,
  }) as TListTicket;

const page = (tickets: TListTicket[], count: number): TKeptPage => ({ tickets, count, hasMore: count > 3 });
const ids = (p: TKeptPage | undefined) => p?.tickets.map((t) => t.id);
const mine = (p: TTicketPlace) => p.status === 'open' && p.userId === 7;
const at = (t: TListTicket) => ({ status: t.status, queueId: t.queueId, userId: t.userId });
const change = (t: TListTicket) => ({ places: [at(t)], rows: [t.id] });
const patch = (kept: TKeptPage, fresh: TListTicket[], limit = 3) =>
  patchPage(kept, new Map(fresh.map((t) => [t.id, t])), change(fresh[0]!), mine, limit);

describe('a kept page patched with a changed row', () => {
  it("writes a page's bytes as JSON.stringify does", () => {
    const p = page([row(1, 50), row(2, 40, {}, 'é "quoted" \u2028')], 2);
    expect(pageBytes(p).toString()).toBe(JSON.stringify({ tickets: p.tickets, count: 2, hasMore: false }));
    expect(pageBytes(page([], 0)).toString()).toBe(JSON.stringify({ tickets: [], count: 0, hasMore: false }));
  });

  const kept = page([row(1, 50), row(2, 40), row(3, 30)], 10);

  it('moves a row of the page to where its new time puts it, the rest as they were', () => {
    const moved = patch(kept, [row(3, 55, {}, 'new')]);
    expect(ids(moved)).toEqual([3, 1, 2]);
    expect(moved?.tickets[0]?.lastMessage).toBe('new');
    expect(moved?.count).toBe(10);
    expect(moved?.hasMore).toBe(true);
    expect(ids(patch(kept, [row(1, 51)]))).toEqual([1, 2, 3]);
  });

  it('brings a row from past the page in, ahead of the last one, which goes', () => {
    expect(ids(patch(kept, [row(9, 45)]))).toEqual([1, 9, 2]);
  });

  it('leaves the page (the same object) when the row stays past it, or the list cannot show it', () => {
    expect(patch(kept, [row(9, 10)])).toBe(kept);
    expect(patch(kept, [row(9, 59, { userId: 8 })])).toBe(kept);
  });

  it('cannot tell when the row falls to the end while more follow, moved, ties a kept time or is new to a whole list', () => {
    expect(patch(kept, [row(1, 20)])).toBeUndefined();
    expect(ids(patch(page(kept.tickets, 3), [row(1, 20)]))).toEqual([2, 3, 1]);
    // its place is not the one of the page's row (it moved)
    expect(patch(kept, [row(2, 59, { queueId: 2 })])).toBeUndefined();
    // nor the one announced
    expect(
      patchPage(
        kept,
        new Map([[2, row(2, 59)]]),
        { places: [{ status: 'pending', queueId: 1, userId: 7 }], rows: [2] },
        mine,
        3,
      ),
    ).toBeUndefined();
    expect(patch(kept, [row(9, 40)])).toBeUndefined();
    expect(patch(page(kept.tickets, 3), [row(9, 59)])).toBeUndefined();
    // not found (deleted, or a flow test's)
    expect(patchPage(kept, new Map(), change(row(2, 59)), mine, 3)).toBeUndefined();
  });

  it('only first pages without a filter a row change can turn', () => {
    const q = { pageNumber: 1, searchParam: '' } as Parameters<typeof isPatchable>[0];
    expect(isPatchable({ ...q, status: 'open', queueIds: [1], users: [7], showAll: true })).toBe(true);
    expect(isPatchable({ ...q, pageNumber: 2 })).toBe(false);
    expect(isPatchable({ ...q, searchParam: 'hello' })).toBe(false);
    expect(isPatchable({ ...q, withUnreadMessages: true })).toBe(false);
    expect(isPatchable({ ...q, tags: [1] })).toBe(false);
    expect(isPatchable({ ...q, date: '2026-11-28' })).toBe(false);
    expect(isPatchable({ ...q, updatedAt: '2026-11-28' })).toBe(false);
  });
});
