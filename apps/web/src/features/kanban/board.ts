import { KANBAN_OPEN_LANE, type TKanbanBoard, type TKanbanLane, type TKanbanTicket, type TTicket } from '@zelo/shared';

/**
 * The board's state changes, as pure functions over the `{lanes}` answer of GET /ticket/kanban?perLane=50:
 * a ticket placed (realtime update, a move), removed (deleted, closed), a lane's next page appended. A ticket
 * sits in the lane of each kanban tag it has, or in "open" without one; within a lane, newest update first.
 */

export type TLaneKey = TKanbanLane['lane'];

/** a lane's key as a string (dnd-kit ids, React keys, test ids) */
export const laneId = (lane: TLaneKey) => `lane-${lane}`;

export const laneTagIds = (board: TKanbanBoard) =>
  new Set(board.lanes.map((l) => l.lane).filter((l): l is number => l !== KANBAN_OPEN_LANE));

/** the lanes a ticket belongs in on this board */
export const lanesOf = (board: TKanbanBoard, ticket: Pick<TKanbanTicket, 'tags'>): TLaneKey[] => {
  const lanes = laneTagIds(board);
  const tagged = ticket.tags.map((t) => t.id).filter((id) => lanes.has(id));

  return tagged.length ? tagged : [KANBAN_OPEN_LANE];
};

const isBoardStatus = (status: string) => status === 'open' || status === 'pending';

/** newest first, then higher id: the server's order */
const before = (a: TKanbanTicket, b: TKanbanTicket) =>
  a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.id > b.id);

const withoutTicket = (lane: TKanbanLane, ticketId: number): TKanbanLane => {
  const index = lane.tickets.findIndex((t) => t.id === ticketId);
  if (index < 0) {
    return lane;
  }

  return { ...lane, tickets: lane.tickets.filter((t) => t.id !== ticketId), count: Math.max(0, lane.count - 1) };
};

const withTicket = (lane: TKanbanLane, ticket: TKanbanTicket): TKanbanLane => {
  const index = lane.tickets.findIndex((t) => before(ticket, t));
  const count = lane.count + 1;
  if (index < 0) {
    // after every loaded card: it shows only once the lane has no more to load
    return lane.hasMore ? { ...lane, count } : { ...lane, count, tickets: [...lane.tickets, ticket] };
  }
  const tickets = [...lane.tickets];
  tickets.splice(index, 0, ticket);

  return { ...lane, tickets, count };
};

/** the ticket taken out of every lane */
export const removeTicket = (board: TKanbanBoard, ticketId: number): TKanbanBoard => ({
  lanes: board.lanes.map((lane) => withoutTicket(lane, ticketId)),
});

/** the ticket moved to where it now belongs (or taken off the board once it is closed) */
export const placeTicket = (board: TKanbanBoard, ticket: TKanbanTicket): TKanbanBoard => {
  const cleared = removeTicket(board, ticket.id);
  if (!isBoardStatus(ticket.status)) {
    return cleared;
  }
  const targets = new Set(lanesOf(board, ticket));

  return { lanes: cleared.lanes.map((lane) => (targets.has(lane.lane) ? withTicket(lane, ticket) : lane)) };
};

/** the tags a card has after a move to `target`: its lane tags replaced by the target's (none for "open") */
export const movedTags = (board: TKanbanBoard, ticket: TKanbanTicket, target: TLaneKey): TKanbanTicket['tags'] => {
  const lanes = laneTagIds(board);
  const kept = ticket.tags.filter((t) => !lanes.has(t.id));
  const lane = board.lanes.find((l) => l.lane === target);
  if (target === KANBAN_OPEN_LANE || !lane?.tag) {
    return kept;
  }

  return [...kept, { ...lane.tag, kanban: 1 }];
};

/** a lane's next page appended (cards already shown, moved in live, are not repeated) */
export const appendPage = (board: TKanbanBoard, page: TKanbanLane): TKanbanBoard => ({
  lanes: board.lanes.map((lane) => {
    if (lane.lane !== page.lane) {
      return lane;
    }
    const shown = new Set(lane.tickets.map((t) => t.id));

    return {
      ...lane,
      tickets: [...lane.tickets, ...page.tickets.filter((t) => !shown.has(t.id))],
      count: page.count,
      hasMore: page.hasMore,
    };
  }),
});

/** the realtime ticket (spec 1 §7 `company-{id}-ticket` update) as a card */
export const toCard = (board: TKanbanBoard, ticket: Omit<TTicket, 'status'> & { status: string }): TKanbanTicket => {
  const lanes = laneTagIds(board);

  return {
    id: ticket.id,
    uuid: ticket.uuid,
    status: ticket.status as TKanbanTicket['status'],
    queueId: ticket.queueId,
    userId: ticket.userId,
    lastMessage: ticket.lastMessage ?? '',
    updatedAt: ticket.updatedAt,
    unreadMessages: ticket.unreadMessages ?? 0,
    contact: {
      id: ticket.contact.id,
      name: ticket.contact.name,
      number: ticket.contact.number,
      profilePicUrl: ticket.contact.profilePicUrl ?? '',
    },
    queue: ticket.queue ? { id: ticket.queue.id, name: ticket.queue.name, color: ticket.queue.color } : null,
    user: ticket.user ? { id: ticket.user.id, name: ticket.user.name } : null,
    tags: (ticket.tags ?? []).map((t) => ({ id: t.id, name: t.name, color: t.color, kanban: lanes.has(t.id) ? 1 : 0 })),
  };
};
