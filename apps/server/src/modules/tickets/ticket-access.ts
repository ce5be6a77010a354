import { rooms } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import { findViewer } from './tickets.repo';

/** A user as the ticket permission rules see them; loaded from the database, never from the request. */
export type TViewer = {
  userId: number;
  companyId: number;
  name: string;
  isAdmin: boolean;
  /** allTicket 'enabled': may switch "show all" on */
  allTicket: boolean;
  /** sees tickets that have no queue */
  seesNoQueue: boolean;
  queueIds: number[];
  whatsappId: number | null;
};

export const loadViewer = async (db: TDbOrTx, auth: Pick<TAuth, 'companyId' | 'userId'>): Promise<TViewer> => {
  const row = await findViewer(db, auth.companyId, auth.userId);
  if (!row) throw new AppError('ERR_NO_USER_FOUND');
  const isAdmin = row.profile === 'admin' || row.super;
  const allTicket = row.allTicket === 'enabled';

  return {
    userId: row.id,
    companyId: auth.companyId,
    name: row.name,
    isAdmin,
    allTicket,
    seesNoQueue: isAdmin || allTicket || row.canSeeTicketsWithoutQueue,
    queueIds: row.queueIds,
    whatsappId: row.whatsappId,
  };
};

/** the queue visibility rule: admins see every queue, others their own queues (and none when allowed) */
export const seesQueue = (viewer: TViewer, queueId: number | null) =>
  viewer.isAdmin || (queueId === null ? viewer.seesNoQueue : viewer.queueIds.includes(queueId));

/** May this user see (open, read, receive events of) the ticket? */
export const canSeeTicket = (viewer: TViewer, ticket: { userId: number | null; queueId: number | null }) =>
  viewer.isAdmin || ticket.userId === viewer.userId || seesQueue(viewer, ticket.queueId);

export const assertCanSee = (viewer: TViewer, ticket: { userId: number | null; queueId: number | null }) => {
  if (!canSeeTicket(viewer, ticket)) throw new AppError('ERR_NO_PERMISSION', 'Acesso não permitido');
};

/** the queue rooms of a user for one kind of room (status or notification) */
export const viewerQueueRooms = (viewer: TViewer, room: (queueId: number | null) => string) => {
  const list = viewer.queueIds.map((q) => room(q));
  if (viewer.seesNoQueue) list.push(room(null));

  return list;
};

/** rooms a ticket's events go to: status, queue, notification, the ticket's own and its user's */
export const ticketRooms = (
  companyId: number,
  ticket: { id: number; status: string; queueId: number | null; userId: number | null; isTest?: boolean },
) => {
  // a flow test run's ticket is in nobody's list or bell: only a screen that opened it hears of it
  if (ticket.isTest) return [rooms.ticket(companyId, ticket.id)];
  const list = [
    rooms.status(companyId, ticket.status),
    rooms.queueStatus(companyId, ticket.queueId, ticket.status),
    rooms.notification(companyId),
    rooms.queueNotification(companyId, ticket.queueId),
    rooms.ticket(companyId, ticket.id),
  ];
  if (ticket.userId) list.push(rooms.user(companyId, ticket.userId));

  return list;
};
