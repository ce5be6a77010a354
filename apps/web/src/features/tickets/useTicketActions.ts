import { useQueryClient } from '@tanstack/react-query';
import type { TTicket } from '@zelo/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toastError } from '../../components/toast';
import { type TAction, transitionBody } from './ticketTransitions';
import { ticketsApi } from './ticketsApi';
import { applyTicketEvent } from './useTicketEvents';
import { useViewer } from './useViewer';

/**
 * Accept, close, reopen and return. Accept and reopen keep the user on the ticket; close and return go back to
 * /tickets. The answer is applied to the loaded lists at once (the realtime event follows).
 */
export const useTicketActions = () => {
  const viewer = useViewer();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busyId, setBusyId] = useState<number | null>(null);

  const run = async (action: TAction, ticket: TTicket) => {
    setBusyId(ticket.id);
    try {
      const updated = await ticketsApi.update(ticket.id, transitionBody(action, ticket, viewer.id));
      if (updated && typeof updated === 'object' && 'id' in updated) {
        applyTicketEvent(queryClient, { action: 'update', ticket: updated }, viewer);
      }
      if (action === 'accept' || action === 'reopen') {
        navigate(`/tickets/${ticket.uuid}`);
      } else {
        navigate('/tickets');
      }
    } catch (err) {
      toastError(err);
    } finally {
      setBusyId(null);
    }
  };

  return {
    busyId,
    accept: (ticket: TTicket) => run('accept', ticket),
    close: (ticket: TTicket) => run('close', ticket),
    reopen: (ticket: TTicket) => run('reopen', ticket),
    returnToPending: (ticket: TTicket) => run('return', ticket),
  };
};
