import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  events,
  KANBAN_LANE_PAGE,
  KANBAN_OPEN_LANE,
  type TKanbanBoard,
  type TKanbanLane,
  type TKanbanTicket,
  type TTicket,
  type TTicketEvent,
} from '@zelo/shared';
import { useCallback, useMemo, useRef } from 'react';
import { api } from '../../api/http';
import { useSocketEvent, useSocketJoin } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { appendPage, laneTagIds, movedTags, placeTicket, removeTicket, type TLaneKey, toCard } from './board';

type TTicketTagsAnswer = { ticketId: number; tags: TKanbanTicket['tags'] };

/**
 * The board: GET /ticket/kanban with every lane's first 50 cards (the caller's queues; `showAll` for admins,
 * spec 2 §6), each lane's next pages on demand, live updates from `company-{id}-ticket` (placed by their tags)
 * and `company-{id}-tag` (lanes changed: read again), and the move of a card (optimistic; errors only logged,
 * spec 2 §8).
 */
export const useKanbanBoard = () => {
  const { user, isAdmin } = useAuth();
  const queryClient = useQueryClient();
  const queueIds = useMemo(() => (user?.queues ?? []).map((q) => q.id), [user]);
  const key = useMemo(() => ['kanban', 'board', queueIds, isAdmin] as const, [queueIds, isAdmin]);
  const params = useMemo(() => ({ queueIds: JSON.stringify(queueIds), showAll: String(isAdmin) }), [queueIds, isAdmin]);
  const board = useQuery({
    queryKey: key,
    queryFn: () => api.get<TKanbanBoard>('/ticket/kanban', { params: { ...params, perLane: KANBAN_LANE_PAGE } }),
  });
  const setBoard = useCallback(
    (change: (b: TKanbanBoard) => TKanbanBoard) =>
      queryClient.setQueryData<TKanbanBoard>(key, (old) => (old ? change(old) : old)),
    [queryClient, key],
  );
  /** tickets being moved here: their own events in between (tag removed, then added) are not shown */
  const moving = useRef(new Set<number>());
  const loading = useRef(new Set<TLaneKey>());

  useSocketJoin('joinTickets', 'open', 'leaveTickets');
  useSocketJoin('joinTickets', 'pending', 'leaveTickets');
  useSocketEvent(user ? events.ticket(user.companyId) : '', (data) => {
    const event = data as TTicketEvent<TTicket>;
    if (event.action === 'update') {
      const ticket = event.ticket;
      if (moving.current.has(ticket.id)) {
        return;
      }
      // the server's rule: an admin's board (showAll) every ticket of the queues asked for (all without any);
      // a user's own tickets and the pending ones of their queues
      const mine = ticket.userId === user?.id;
      const inQueues = ticket.queueId === null || queueIds.includes(ticket.queueId);
      const shown = isAdmin
        ? queueIds.length === 0 || inQueues
        : (mine || ticket.status === 'pending') && (inQueues || mine);
      setBoard((b) => (shown ? placeTicket(b, toCard(b, ticket)) : removeTicket(b, ticket.id)));
    } else if (event.action === 'delete') {
      setBoard((b) => removeTicket(b, event.ticketId));
    }
  });
  useSocketEvent(user ? events.tag(user.companyId) : '', () => {
    void queryClient.invalidateQueries({ queryKey: key });
  });

  const loadMore = useCallback(
    async (lane: TKanbanLane) => {
      if (!lane.hasMore || loading.current.has(lane.lane)) {
        return;
      }
      loading.current.add(lane.lane);
      try {
        const page = await api.get<TKanbanLane>('/ticket/kanban', {
          params: {
            ...params,
            lane: String(lane.lane),
            pageNumber: Math.floor(lane.tickets.length / KANBAN_LANE_PAGE) + 1,
            limit: KANBAN_LANE_PAGE,
          },
        });
        setBoard((b) => appendPage(b, page));
      } catch (err) {
        console.error('kanban: loading a lane failed', err);
      } finally {
        loading.current.delete(lane.lane);
      }
    },
    [setBoard, params],
  );

  /** DELETE /ticket-tags/:id (its lane tags; other tags stay) then PUT /ticket-tags/:id/:tagId */
  const move = useCallback(
    async (ticket: TKanbanTicket, target: TLaneKey) => {
      const current = queryClient.getQueryData<TKanbanBoard>(key);
      if (!current) {
        return;
      }
      moving.current.add(ticket.id);
      setBoard((b) => placeTicket(b, { ...ticket, tags: movedTags(b, ticket, target) }));
      try {
        const lanes = laneTagIds(current);
        let answer: TTicketTagsAnswer | undefined;
        if (ticket.tags.some((t) => lanes.has(t.id))) {
          answer = await api.delete<TTicketTagsAnswer>(`/ticket-tags/${ticket.id}`);
        }
        if (target !== KANBAN_OPEN_LANE) {
          answer = await api.put<TTicketTagsAnswer>(`/ticket-tags/${ticket.id}/${target}`);
        }
        const tags = answer?.tags;
        if (tags) {
          setBoard((b) => placeTicket(b, { ...ticket, tags }));
        }
      } catch (err) {
        console.error('kanban: moving a card failed', err);
        void queryClient.invalidateQueries({ queryKey: key });
      } finally {
        moving.current.delete(ticket.id);
      }
    },
    [queryClient, key, setBoard],
  );

  return { board: board.data, isLoading: board.isLoading, loadMore, move };
};
