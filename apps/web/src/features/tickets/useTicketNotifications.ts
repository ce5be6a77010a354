import { useQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TTicket } from '@zelo/shared';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { useSocketEvent, useSocketJoin } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { playNotificationSound } from './notificationSound';
import { applyTicketEventToBell, shouldNotify, upsertNotification } from './notificationRules';
import { NOTIFICATIONS_KEY } from './queryKeys';
import { ticketsApi } from './ticketsApi';
import type { TAppMessageEvent, TTicketEvent } from './ticketTypes';
import { useViewer } from './useViewer';
import './i18n';

/** The ticket open on screen (set by the conversation), so its own messages do not notify. */
let currentTicketId: number | null = null;
export const setCurrentTicketId = (id: number | null) => {
  currentTicketId = id;
};

const canNotifyBrowser = () => typeof window !== 'undefined' && 'Notification' in window;

/**
 * Notifications (spec 1 §6): the bell's list of tickets with unread messages, a sound at the chosen volume and
 * a browser notification while the tab is hidden. Mounted once, in the top bar.
 */
export const useTicketNotifications = () => {
  const { t } = useTranslation();
  const { user } = useAuth();
  const viewer = useViewer();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useSocketJoin('joinNotification');

  const list = useQuery({
    queryKey: NOTIFICATIONS_KEY,
    enabled: Boolean(user),
    retry: false,
    queryFn: async (): Promise<TTicket[]> => {
      try {
        const page = await ticketsApi.list(
          { queueIds: viewer.queueIds, showAll: viewer.canShowAll, withUnreadMessages: true },
          1,
        );

        return (page?.tickets ?? []).filter(
          (ticket) =>
            ticket.unreadMessages > 0 &&
            !ticket.isGroup &&
            (ticket.userId === null || ticket.userId === viewer.id) &&
            (ticket.status !== 'pending' || viewer.canShowAll) &&
            ticket.status !== 'closed',
        );
      } catch {
        return [];
      }
    },
  });

  useEffect(() => {
    if (canNotifyBrowser() && Notification.permission === 'default') {
      void Notification.requestPermission().catch(() => undefined);
    }
  }, []);

  const browserNotification = useRef<Notification | null>(null);
  const setList = useCallback(
    (update: (old: TTicket[]) => TTicket[]) =>
      queryClient.setQueryData<TTicket[]>(NOTIFICATIONS_KEY, (old) => update(old ?? [])),
    [queryClient],
  );

  const onMessage = useCallback(
    (data: TAppMessageEvent) => {
      if (data.action !== 'create' || !data.ticket || !data.message) {
        return;
      }
      const visible = typeof document !== 'undefined' && document.visibilityState === 'visible';
      const notify = shouldNotify(data.message, data.ticket, {
        userId: viewer.id,
        showPending: viewer.canShowAll,
        visibleTicketId: visible ? currentTicketId : null,
      });
      if (!notify) {
        return;
      }
      setList((old) => upsertNotification(old, data.ticket));
      playNotificationSound();
      if (!visible && canNotifyBrowser() && Notification.permission === 'granted') {
        const name = data.contact?.name ?? data.ticket.contact?.name ?? '';
        browserNotification.current?.close();
        const notification = new Notification(t('tickets.notifications.newMessage', { name }), {
          body: data.message.body.slice(0, 200),
          icon: data.contact?.profilePicUrl || data.ticket.contact?.profilePicUrl || undefined,
          tag: `ticket-${data.ticket.id}`,
        });
        notification.onclick = () => {
          window.focus();
          navigate(`/tickets/${data.ticket.uuid}`);
          notification.close();
        };
        browserNotification.current = notification;
      }
    },
    [viewer, setList, t, navigate],
  );

  const movedAway = useRef(new Set<number>());
  const onTicket = useCallback(
    (data: TTicketEvent) => {
      const keep = (ticket: TTicket) =>
        ticket.unreadMessages > 0 &&
        ticket.status !== 'closed' &&
        (ticket.userId === null || ticket.userId === viewer.id) &&
        (ticket.status !== 'pending' || viewer.canShowAll);
      setList((old) => applyTicketEventToBell(old, data, keep, movedAway.current));
    },
    [setList, viewer],
  );

  useSocketEvent(user ? events.appMessage(user.companyId) : '', onMessage);
  useSocketEvent(user ? events.ticket(user.companyId) : '', onTicket);

  return list.data ?? [];
};
