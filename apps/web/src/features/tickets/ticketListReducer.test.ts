import { describe, expect, it } from 'vitest';
import { makeTicket } from './testFixtures';
import {
  applyMessageTicket,
  applyTicketUpdate,
  applyTicketEventToList,
  applyUnreadReset,
  belongsInList,
  flattenTickets,
  isTicketGone,
  removeTicket,
  ticketsCount,
} from './ticketListReducer';
import type { TTicketEvent, TTicketListFilter, TTicketsData, TViewer } from './ticketTypes';

const viewer: TViewer = { id: 7, isAdmin: false, allTicket: false };
const pending: TTicketListFilter = { status: 'pending', queueIds: [1, 2], showAll: false };
const open: TTicketListFilter = { status: 'open', queueIds: [1, 2], showAll: false };

const data = (...ids: number[]): TTicketsData => ({
  pages: [{ tickets: ids.map((id) => makeTicket(id)), count: ids.length, hasMore: false }],
  pageParams: [1],
});

describe('belongsInList', () => {
  it('needs the same status', () => {
    expect(belongsInList(makeTicket(1), pending, viewer)).toBe(true);
    expect(belongsInList(makeTicket(1, { status: 'open' }), pending, viewer)).toBe(false);
  });

  it('needs one of the chosen queues; tickets without a queue stay', () => {
    expect(belongsInList(makeTicket(1, { queueId: 3 }), pending, viewer)).toBe(false);
    expect(belongsInList(makeTicket(1, { queueId: null, queue: null }), pending, viewer)).toBe(true);
  });

  it("hides another user's ticket unless 'show all' is on", () => {
    const other = makeTicket(1, { status: 'open', userId: 9 });
    expect(belongsInList(other, open, viewer)).toBe(false);
    expect(belongsInList(other, { ...open, showAll: true }, viewer)).toBe(true);
    expect(belongsInList(makeTicket(1, { status: 'open', userId: 7 }), open, viewer)).toBe(true);
  });

  it('applies tag and user filters', () => {
    const tagged = makeTicket(1, { tags: [{ id: 5, name: 'vip', color: '#000' }], userId: 7, status: 'open' });
    expect(belongsInList(tagged, { queueIds: [], showAll: true, tags: [5] }, viewer)).toBe(true);
    expect(belongsInList(tagged, { queueIds: [], showAll: true, tags: [6] }, viewer)).toBe(false);
    expect(belongsInList(tagged, { queueIds: [], showAll: true, users: [8] }, viewer)).toBe(false);
  });
});

describe('live list updates', () => {
  it('an update that leaves the status removes the ticket and lowers the count', () => {
    const next = applyTicketUpdate(data(1, 2), makeTicket(1, { status: 'open', userId: 7 }), pending, viewer);
    expect(flattenTickets(next).map((t) => t.id)).toEqual([2]);
    expect(ticketsCount(next)).toBe(1);
  });

  it('an update that enters the list adds the ticket on top', () => {
    const next = applyTicketUpdate(data(2), makeTicket(1, { status: 'open', userId: 7 }), open, viewer);
    expect(flattenTickets(next).map((t) => t.id)).toEqual([1, 2]);
    const opened = applyTicketUpdate(data(2, 3), makeTicket(1, { status: 'pending' }), pending, viewer);
    expect(flattenTickets(opened).map((t) => t.id)).toEqual([1, 2, 3]);
    expect(ticketsCount(opened)).toBe(3);
  });

  it('an update of a listed ticket keeps its place', () => {
    const next = applyTicketUpdate(data(1, 2), makeTicket(2, { lastMessage: 'novo' }), pending, viewer);
    expect(flattenTickets(next).map((t) => [t.id, t.lastMessage])).toEqual([
      [1, 'oi'],
      [2, 'novo'],
    ]);
  });

  it('a transfer to a queue not chosen removes the ticket', () => {
    const next = applyTicketUpdate(data(1, 2), makeTicket(1, { queueId: 9 }), pending, viewer);
    expect(flattenTickets(next).map((t) => t.id)).toEqual([2]);
  });

  it('a new message raises its ticket to the top with its unread count', () => {
    const next = applyMessageTicket(data(1, 2, 3), makeTicket(3, { unreadMessages: 2 }), pending, viewer);
    expect(flattenTickets(next).map((t) => t.id)).toEqual([3, 1, 2]);
    expect(flattenTickets(next)[0].unreadMessages).toBe(2);
    expect(ticketsCount(next)).toBe(3);
  });

  it('a search list never gains tickets from events', () => {
    const search: TTicketListFilter = { queueIds: [1], showAll: false, searchParam: 'ana' };
    const base = data(1);
    expect(applyMessageTicket(base, makeTicket(2), search, viewer)).toBe(base);
    expect(applyTicketUpdate(base, makeTicket(2), search, viewer)).toBe(base);
  });

  it('delete removes; updateUnread zeroes', () => {
    const withUnread: TTicketsData = {
      pages: [{ tickets: [makeTicket(1, { unreadMessages: 4 }), makeTicket(2)], count: 2, hasMore: false }],
      pageParams: [1],
    };
    expect(flattenTickets(applyUnreadReset(withUnread, 1))[0].unreadMessages).toBe(0);
    expect(flattenTickets(removeTicket(withUnread, 1)).map((t) => t.id)).toEqual([2]);
    expect(removeTicket(withUnread, 99)).toBe(withUnread);
  });

  it('moves a ticket from a later page to the top of the first', () => {
    const paged: TTicketsData = {
      pages: [
        { tickets: [makeTicket(1)], count: 2, hasMore: true },
        { tickets: [makeTicket(2)], count: 2, hasMore: false },
      ],
      pageParams: [1, 2],
    };
    const next = applyMessageTicket(paged, makeTicket(2, { unreadMessages: 1 }), pending, viewer);
    expect(next?.pages.map((p) => p.tickets.map((t) => t.id))).toEqual([[2, 1], []]);
    expect(ticketsCount(next)).toBe(2);
  });
});

describe('a move: delete to the rooms left, then update to the new ones', () => {
  const lists = () => ({ pending: data(1, 2), open: data(3) });
  const play = (events: TTicketEvent[], start = lists()) => {
    let p: TTicketsData | undefined = start.pending;
    let o: TTicketsData | undefined = start.open;
    for (const event of events) {
      p = applyTicketEventToList(p, event, pending, viewer);
      o = applyTicketEventToList(o, event, open, viewer);
    }

    return { pending: flattenTickets(p).map((t) => t.id), open: flattenTickets(o).map((t) => t.id) };
  };

  it('an accepted ticket leaves "waiting" and enters "open" on top', () => {
    const accepted = makeTicket(1, { status: 'open', userId: 7 });
    expect(
      play([
        { action: 'delete', ticketId: 1, moved: true },
        { action: 'update', ticket: accepted },
      ]),
    ).toEqual({ pending: [2], open: [1, 3] });
  });

  it('a ticket transferred to a queue this user does not see leaves every list with the delete alone', () => {
    expect(play([{ action: 'delete', ticketId: 3, moved: true }])).toEqual({ pending: [1, 2], open: [] });
  });

  it('a ticket returned to waiting comes back to the pending list', () => {
    const returned = makeTicket(3, { status: 'pending', userId: null });
    expect(
      play([
        { action: 'delete', ticketId: 3, moved: true },
        { action: 'update', ticket: returned },
      ]),
    ).toEqual({ pending: [3, 1, 2], open: [] });
  });

  it('only a delete that is not a move closes the open conversation', () => {
    expect(isTicketGone({ action: 'delete', ticketId: 1, moved: true }, 1)).toBe(false);
    expect(isTicketGone({ action: 'delete', ticketId: 1 }, 1)).toBe(true);
    expect(isTicketGone({ action: 'delete', ticketId: 2 }, 1)).toBe(false);
    expect(isTicketGone({ action: 'update', ticket: makeTicket(1) }, 1)).toBe(false);
  });
});
