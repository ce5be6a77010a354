import type { TTicket } from '@zelo/shared';

/** a row's height before it is measured (name, preview and one line of chips) */
export const TICKET_ROW_ESTIMATE = 108;

/** lists up to this many tickets (two and a half pages) render whole; longer ones only the rows in view */
export const TICKETS_VIRTUALIZED_AFTER = 100;

/** what a ticket row needs beside its ticket (TicketRow's props) */
export type TTicketRowProps = {
  narrow: boolean;
  isAdmin: boolean;
  onOpen: (ticket: TTicket) => void;
  onAccept: (ticket: TTicket) => void;
  onClose: (ticket: TTicket) => void;
  onReopen: (ticket: TTicket) => void;
  onPeek: (ticket: TTicket) => void;
};

export type TTicketRowsProps = {
  tickets: TTicket[];
  selectedUuid?: string;
  busyId: number | null;
  rowProps: TTicketRowProps;
};
