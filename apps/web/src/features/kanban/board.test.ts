import type { TKanbanBoard, TKanbanTicket } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { appendPage, lanesOf, movedTags, placeTicket, removeTicket, toCard } from './board';

const lane1 = { id: 10, name: 'Doing', color: '#111111' };
const lane2 = { id: 20, name: 'Done', color: '#222222' };
const plain = { id: 30, name: 'VIP', color: '#333333', kanban: 0 };

const card = (id: number, minute: number, tags: TKanbanTicket['tags'] = []): TKanbanTicket => ({
  id,
  uuid: `uuid-${id}`,
  status: 'open',
  queueId: null,
  userId: null,
  lastMessage: `hello ${id}`,
  updatedAt: `2026-11-25T10:${String(minute).padStart(2, '0')}:00.000Z`,
  unreadMessages: 0,
  contact: { id: id + 1000, name: `Customer ${id}`, number: `55${id}`, profilePicUrl: '' },
  queue: null,
  user: null,
  tags,
});

const board = (): TKanbanBoard => ({
  lanes: [
    { lane: 'open', tag: null, count: 2, hasMore: false, tickets: [card(1, 50, [plain]), card(2, 40)] },
    {
      lane: 10,
      tag: lane1,
      count: 3,
      hasMore: true,
      tickets: [card(3, 30, [{ ...lane1, kanban: 1 }]), card(4, 20, [{ ...lane1, kanban: 1 }])],
    },
    { lane: 20, tag: lane2, count: 0, hasMore: false, tickets: [] },
  ],
});
const ids = (b: TKanbanBoard) => b.lanes.map((l) => [l.lane, l.count, l.tickets.map((t) => t.id)]);

describe('kanban board state', () => {
  it('puts a ticket in its kanban tags\' lanes, or "open" without one', () => {
    expect(lanesOf(board(), { tags: [plain] })).toEqual(['open']);
    expect(lanesOf(board(), { tags: [plain, { ...lane2, kanban: 1 }, { ...lane1, kanban: 1 }] })).toEqual([20, 10]);
  });

  it('moves a card: out of its lane, into the target at its place by update time, counts follow', () => {
    const b = board();
    const moving = b.lanes[0].tickets[1];
    const moved = placeTicket(b, { ...moving, tags: movedTags(b, moving, 10) });
    expect(ids(moved)).toEqual([
      ['open', 1, [1]],
      [10, 4, [2, 3, 4]],
      [20, 0, []],
    ]);
    // and back to "open": the lane tag goes, the plain tag stays
    const back = movedTags(moved, moved.lanes[1].tickets[1], 'open');
    expect(back).toEqual([]);
    expect(movedTags(b, b.lanes[0].tickets[0], 20)).toEqual([plain, { ...lane2, kanban: 1 }]);
  });

  it('a card older than every loaded one of a lane with more to load is counted, not shown', () => {
    const b = board();
    const old = placeTicket(b, card(9, 1, [{ ...lane1, kanban: 1 }]));
    expect(ids(old)[1]).toEqual([10, 4, [3, 4]]);
    const last = placeTicket(b, card(9, 1, [{ ...lane2, kanban: 1 }]));
    expect(ids(last)[2]).toEqual([20, 1, [9]]);
  });

  it('takes a closed or deleted ticket off the board, and placing twice does not duplicate', () => {
    const b = board();
    expect(ids(placeTicket(b, { ...b.lanes[1].tickets[0], status: 'closed' as 'open' }))[1]).toEqual([10, 2, [4]]);
    expect(ids(removeTicket(b, 1))[0]).toEqual(['open', 1, [2]]);
    const twice = placeTicket(placeTicket(b, card(7, 59)), card(7, 59));
    expect(ids(twice)[0]).toEqual(['open', 3, [7, 1, 2]]);
  });

  it('appends a lane page without repeating cards moved in live', () => {
    const b = placeTicket(board(), card(5, 35, [{ ...lane1, kanban: 1 }]));
    const next = appendPage(b, { lane: 10, tag: lane1, count: 4, hasMore: false, tickets: [card(5, 35), card(6, 10)] });
    expect(ids(next)[1]).toEqual([10, 4, [5, 3, 4, 6]]);
    expect(next.lanes[1].hasMore).toBe(false);
  });

  it('reads a realtime ticket as a card, marking its lane tags', () => {
    const base = card(8, 5);
    const c = toCard(board(), {
      ...base,
      whatsappId: null,
      whatsapp: null,
      contactId: base.contact.id,
      contact: { ...base.contact, email: '', isGroup: false },
      isGroup: false,
      chatbot: false,
      useIntegration: false,
      promptId: null,
      integrationId: null,
      code: '',
      createdAt: base.updatedAt,
      tags: [
        { id: 20, name: 'Done', color: '#222222' },
        { id: 30, name: 'VIP', color: '#333333' },
      ],
    });
    expect(c.tags.map((t) => [t.id, t.kanban])).toEqual([
      [20, 1],
      [30, 0],
    ]);
  });
});
