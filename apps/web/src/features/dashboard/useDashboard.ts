import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TDashboard, type TTicketsDay, type TTicketsUsers } from '@zelo/shared';
import { useEffect, useRef } from 'react';
import { api } from '../../api/http';
import { useSocketEvent, useSocketJoin } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';

export const DASHBOARD_KEY = ['dashboard'] as const;
/** the open screen asks again at most this often however many ticket events arrive */
export const DASHBOARD_REFRESH_MS = 5000;

export type TChartRange = { initialDate: string; finalDate: string };

/** GET /dashboard for the applied filter (nothing asked while it is null) */
export const useDashboardData = (params: Record<string, string> | null) =>
  useQuery({
    queryKey: [...DASHBOARD_KEY, 'main', params],
    queryFn: () => api.get<TDashboard>('/dashboard', { params: params ?? {} }),
    enabled: params !== null,
    placeholderData: keepPreviousData,
  });

export const useTicketsUsers = (range: TChartRange) =>
  useQuery({
    queryKey: [...DASHBOARD_KEY, 'ticketsUsers', range],
    queryFn: () => api.get<TTicketsUsers>('/dashboard/ticketsUsers', { params: range }),
    placeholderData: keepPreviousData,
  });

export const useTicketsDay = (range: TChartRange) =>
  useQuery({
    queryKey: [...DASHBOARD_KEY, 'ticketsDay', range],
    queryFn: () => api.get<TTicketsDay>('/dashboard/ticketsDay', { params: range }),
    placeholderData: keepPreviousData,
  });

/**
 * Keeps the open dashboard current: ticket, contact and user (online) events of the company ask for its
 * figures again, at most once per DASHBOARD_REFRESH_MS (a burst of events is one refresh at the window's end).
 */
export const useDashboardRefresh = () => {
  const { user } = useAuth();
  const client = useQueryClient();
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useSocketJoin('joinTickets', 'open', 'leaveTickets');
  useSocketJoin('joinTickets', 'pending', 'leaveTickets');
  useSocketJoin('joinTickets', 'closed', 'leaveTickets');
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const schedule = () => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + DASHBOARD_REFRESH_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      void client.invalidateQueries({ queryKey: DASHBOARD_KEY });
    }, wait);
  };
  useSocketEvent(user ? events.ticket(user.companyId) : '', schedule);
  useSocketEvent(user ? events.contact(user.companyId) : '', schedule);
  useSocketEvent(user ? events.user(user.companyId) : '', schedule);
};
