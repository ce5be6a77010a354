import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from '../../components/toast';
import { ticketKey } from './queryKeys';
import { ticketsApi } from './ticketsApi';
import { canAccessQueue, useViewer } from './useViewer';

/**
 * The ticket of /tickets/:uuid. A user without access to its queue (or a ticket the server refuses or does not
 * know) gets 'Acesso não permitido' and goes back to /tickets (spec 1 §2).
 */
export const useOpenTicket = (uuid: string) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const viewer = useViewer();
  const query = useQuery({
    queryKey: ticketKey(uuid),
    queryFn: () => ticketsApi.byUuid(uuid),
    retry: false,
    staleTime: 0,
  });
  const ticket = query.data;
  const denied = query.isError || (ticket ? !canAccessQueue(viewer, ticket.queueId) : false);

  useEffect(() => {
    if (denied) {
      toast.error(t('tickets.accessDenied'));
      navigate('/tickets', { replace: true });
    }
  }, [denied, navigate, t]);

  return { ticket: denied ? undefined : ticket, isLoading: query.isLoading };
};
