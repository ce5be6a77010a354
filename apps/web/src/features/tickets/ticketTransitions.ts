import type { TTicket, TUpdateTicketBody } from '@zelo/shared';

export type TAction = 'accept' | 'close' | 'reopen' | 'return';

/** The body each transition of spec 1 §4 sends. */
export const transitionBody = (action: TAction, ticket: TTicket, userId: number): TUpdateTicketBody => {
  switch (action) {
    case 'accept':
    case 'reopen':
      return { status: 'open', userId, queueId: ticket.queueId };
    case 'return':
      return { status: 'pending', userId: null };
    case 'close':
      return {
        status: 'closed',
        userId: ticket.userId ?? userId,
        queueId: ticket.queueId,
        useIntegration: false,
        promptId: null,
        integrationId: null,
      };
  }
};
