import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type TChannelWindow, ZChannelWindow } from '@zelo/shared';
import { useCallback, useEffect, useState } from 'react';
import { windowKey } from './queryKeys';
import { ticketsApi } from './ticketsApi';
import { windowState } from './channelWindow';

/**
 * GET /tickets/:ticketId/window. A server without the route (404 ERR_ROUTE_NOT_FOUND), a transport without a
 * window or any failure reads as "no window": the server still refuses a send outside it (ERR_WAPP_WINDOW_CLOSED).
 */
const loadWindow = async (ticketId: number): Promise<TChannelWindow | null> => {
  try {
    const parsed = ZChannelWindow.safeParse(await ticketsApi.window(ticketId));

    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/** The ticket's window as the composer reads it, re-evaluated every 30 s while open; `refresh` asks again. */
export const useChannelWindow = (ticketId: number, enabled: boolean) => {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: windowKey(ticketId),
    enabled: enabled && ticketId > 0,
    queryFn: () => loadWindow(ticketId),
    staleTime: 60_000,
    retry: false,
  });
  const [now, setNow] = useState(() => Date.now());
  const applies = Boolean(query.data?.applies);
  useEffect(() => {
    if (!applies) {
      return;
    }
    const timer = setInterval(() => setNow(Date.now()), 30_000);

    return () => clearInterval(timer);
  }, [applies]);
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: windowKey(ticketId) }),
    [queryClient, ticketId],
  );

  return { window: windowState(enabled ? query.data : null, now), refresh };
};
