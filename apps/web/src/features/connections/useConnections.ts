import { useQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TConnection } from '@zelo/shared';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import {
  applySessionUpdate,
  CONNECTIONS_QUERY_KEY,
  needsAttention,
  removeConnection,
  type TSessionUpdate,
  upsertConnection,
} from './connectionsCache';

export type TWhatsappEvent =
  | { action: 'create' | 'update'; whatsapp: TConnection }
  | { action: 'delete'; whatsappId: number };
export type TSessionEvent = { action: 'update'; session: TSessionUpdate };

export const fetchConnections = () => api.get<TConnection[]>('/whatsapp', { params: { session: 0 } });

/** The company's connections (GET /whatsapp), kept live by the connection and session events. */
export const useConnections = (enabled = true) => {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: CONNECTIONS_QUERY_KEY,
    queryFn: fetchConnections,
    enabled: enabled && Boolean(user),
    staleTime: 60_000,
  });

  /**
   * A list being fetched when an event arrives was read before the event: its answer would put the older
   * state back, so it is fetched again (the in-flight fetch is cancelled).
   */
  const refetchIfInFlight = useCallback(() => {
    if (queryClient.isFetching({ queryKey: CONNECTIONS_QUERY_KEY }) > 0) {
      void queryClient.invalidateQueries({ queryKey: CONNECTIONS_QUERY_KEY });
    }
  }, [queryClient]);
  const onWhatsapp = useCallback(
    (data: TWhatsappEvent) => {
      queryClient.setQueryData<TConnection[]>(CONNECTIONS_QUERY_KEY, (old) => {
        if (data.action === 'delete') {
          return removeConnection(old, Number(data.whatsappId));
        }

        return data.whatsapp ? upsertConnection(old, data.whatsapp) : old;
      });
      refetchIfInFlight();
    },
    [queryClient, refetchIfInFlight],
  );
  const onSession = useCallback(
    (data: TSessionEvent) => {
      if (data.action === 'update' && data.session) {
        const known = queryClient
          .getQueryData<TConnection[]>(CONNECTIONS_QUERY_KEY)
          ?.some((c) => c.id === Number(data.session.id));
        queryClient.setQueryData<TConnection[]>(CONNECTIONS_QUERY_KEY, (old) => applySessionUpdate(old, data.session));
        // the state of a connection the list does not hold yet is read with the list again
        if (known === false) void queryClient.invalidateQueries({ queryKey: CONNECTIONS_QUERY_KEY });
        else refetchIfInFlight();
      }
    },
    [queryClient, refetchIfInFlight],
  );
  useSocketEvent(user && enabled ? events.whatsapp(user.companyId) : '', onWhatsapp);
  useSocketEvent(user && enabled ? events.whatsappSession(user.companyId) : '', onSession);

  return query;
};

/** spec 1 §4: checked 2 s after the list changes. */
export const ATTENTION_CHECK_DELAY_MS = 2000;

/** The side menu's '!': any connection needing attention, checked 2 s after the list changes. */
export const useConnectionsAlert = () => {
  const { data } = useConnections();
  const [alert, setAlert] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setAlert(needsAttention(data)), ATTENTION_CHECK_DELAY_MS);

    return () => clearTimeout(timer);
  }, [data]);

  return alert;
};
