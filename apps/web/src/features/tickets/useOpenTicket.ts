import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useNavigate } from 'react-router';
import { toast } from '../../components/toast';
import { ticketKey } from './queryKeys';
import { ticketsApi } from './ticketsApi';
import { canAccessQueue, useViewer } from './useViewer';

/**
 * What the screen does with the ticket of the URL: show it; refuse it ('Acesso não permitido') when it could
 * not be opened; or just leave it when a ticket already shown moved out of the viewer's reach (the viewer's
 * own transfer to another sector, or someone else's) — that is not a refused access.
 */
export const openTicketOutcome = (input: {
  wasShown: boolean;
  failed: boolean;
  accessible: boolean | null;
}): 'show' | 'wait' | 'denied' | 'left' => {
  const out = input.failed || input.accessible === false;
  if (!out) return input.accessible ? 'show' : 'wait';

  return input.wasShown ? 'left' : 'denied';
};

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
  const shown = useRef<string | null>(null);
  const outcome = openTicketOutcome({
    wasShown: shown.current === uuid,
    failed: query.isError,
    accessible: ticket ? canAccessQueue(viewer, ticket.queueId) : null,
  });
  if (outcome === 'show') shown.current = uuid;
  const denied = outcome === 'denied' || outcome === 'left';

  useEffect(() => {
    if (outcome === 'denied') {
      toast.error(t('tickets.accessDenied'));
    }
    if (outcome === 'denied' || outcome === 'left') {
      navigate('/tickets', { replace: true });
    }
  }, [outcome, navigate, t]);

  return { ticket: denied ? undefined : ticket, isLoading: query.isLoading };
};
