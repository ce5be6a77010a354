import { z } from 'zod';
import { V, zId, zNumeric, zPageNumber, zQueryBool } from './common.js';
import { zIdList } from './tickets.js';

/** cards a board lane shows at first, and per page of a lane */
export const KANBAN_LANE_PAGE = 50;
/** the first lane: open and pending tickets without a kanban tag */
export const KANBAN_OPEN_LANE = 'open';

const zLaneSize = zNumeric(z.number().int(V.invalid).min(1, V.invalid).max(100, V.invalid));

/**
 * `GET /api/ticket/kanban`. Three answers, by the parameters given:
 * - none of `lane`/`perLane` (the ancestor's call): every open and pending ticket the caller may see,
 *   `{tickets, count, hasMore: false}`;
 * - `perLane=N` (the board's first load): `{lanes: [{lane, tag, tickets, count, hasMore}]}`, the "open" lane
 *   first, then each kanban tag (by name), each with its newest N cards and its whole count;
 * - `lane=open|<tag id>` with `pageNumber` and `limit` (default 50): one lane's page, `{lane, tag, tickets,
 *   count, hasMore}` (scrolling a lane).
 */
export const ZKanbanQuery = z.object({
  /** the caller's queues, as a JSON array (`[1,2]`) or `1,2`; a non-admin's are cut to the queues they belong to */
  queueIds: zIdList.optional().describe('queue ids, JSON array or comma list; a user is kept to their own queues'),
  /** every ticket of those queues, not only one's own and the pending ones: admins only (ignored for users) */
  showAll: zQueryBool.optional().describe('admins only: every ticket of the queues, not only own and pending'),
  lane: z
    .union([z.literal(KANBAN_OPEN_LANE), zId], { error: V.invalid })
    .optional()
    .describe('one lane: "open" (no kanban tag) or a kanban tag id; pages with pageNumber and limit'),
  pageNumber: zPageNumber.describe('page of the lane (with lane)'),
  limit: zLaneSize.optional().describe('cards per lane page, 1-100, default 50 (with lane)'),
  perLane: zLaneSize
    .optional()
    .describe('the board: every lane with its first perLane cards, its count and hasMore (1-100)'),
});
export type TKanbanQuery = z.infer<typeof ZKanbanQuery>;

export const ZKanbanTag = z.object({ id: z.number(), name: z.string(), color: z.string(), kanban: z.number() });

/** a card: what the board shows of a ticket */
export const ZKanbanTicket = z.object({
  id: z.number(),
  uuid: z.string(),
  status: z.enum(['open', 'pending']),
  queueId: z.number().nullable(),
  userId: z.number().nullable(),
  lastMessage: z.string(),
  updatedAt: z.string(),
  unreadMessages: z.number(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string(), profilePicUrl: z.string() }),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  tags: z.array(ZKanbanTag),
});
export type TKanbanTicket = z.infer<typeof ZKanbanTicket>;

export const ZKanbanLane = z.object({
  /** "open" or the lane's tag id */
  lane: z.union([z.literal(KANBAN_OPEN_LANE), z.number()]),
  tag: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  tickets: z.array(ZKanbanTicket),
  count: z.number(),
  hasMore: z.boolean(),
});
export type TKanbanLane = z.infer<typeof ZKanbanLane>;
export const ZKanbanBoard = z.object({ lanes: z.array(ZKanbanLane) });
export type TKanbanBoard = z.infer<typeof ZKanbanBoard>;
