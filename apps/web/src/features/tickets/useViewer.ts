import { useMemo } from 'react';
import { useAuth } from '../../app/auth/AuthContext';
import type { TViewer } from './ticketTypes';

/** The signed-in user as the ticket rules read it; admins and allTicket users may 'show all'. */
export const useViewer = (): TViewer & {
  canShowAll: boolean;
  name: string;
  queueIds: number[];
  whatsappId: number | null;
} => {
  const { user, isAdmin } = useAuth();

  return useMemo(() => {
    const allTicket = user?.allTicket === 'enabled';

    return {
      id: user?.id ?? 0,
      isAdmin,
      allTicket,
      canShowAll: isAdmin || allTicket,
      name: user?.name ?? '',
      queueIds: user?.queues.map((q) => q.id) ?? [],
      whatsappId: user?.whatsappId ?? null,
    };
  }, [user, isAdmin]);
};

/** Admins reach every queue; others only their own queues (and tickets without one). */
export const canAccessQueue = (viewer: { isAdmin: boolean; queueIds: number[] }, queueId: number | null) =>
  viewer.isAdmin || queueId === null || viewer.queueIds.includes(queueId);
