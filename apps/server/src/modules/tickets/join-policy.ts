import { rooms } from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import type { TAppContext } from '../../lib/context';
import { canSeeTicket, loadViewer, viewerQueueRooms } from './ticket-access';
import { findTicketPlain } from './tickets.repo';

/**
 * The socket join policy (ARCHITECTURE §5): every room is of the socket's own company; admins join the
 * company's status and notification rooms, other users the rooms of their queues (and of tickets without
 * a queue when allowed), and a ticket's room only when they may see that ticket.
 */
export const registerTicketJoinPolicy = (ctx: TAppContext) => {
  const viewerOf = (auth: TAuth) => loadViewer(ctx.db, auth);
  ctx.realtime.setJoinPolicy({
    chatBox: async (auth, ticketId) => {
      const ticket = await findTicketPlain(ctx.db, auth.companyId, ticketId);
      if (!ticket) return [];

      return canSeeTicket(await viewerOf(auth), ticket) ? [rooms.ticket(auth.companyId, ticket.id)] : [];
    },
    notification: async (auth) => {
      const viewer = await viewerOf(auth);
      if (viewer.isAdmin) return [rooms.notification(auth.companyId)];

      return viewerQueueRooms(viewer, (q) => rooms.queueNotification(auth.companyId, q));
    },
    tickets: async (auth, status) => {
      const viewer = await viewerOf(auth);
      if (viewer.isAdmin) return [rooms.status(auth.companyId, status)];

      return viewerQueueRooms(viewer, (q) => rooms.queueStatus(auth.companyId, q, status));
    },
  });
};
