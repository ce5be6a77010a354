import { Box } from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { type ReactNode, useEffect, useState } from 'react';
import { afterFirstScreen } from '../../app/firstScreen';

/** a row's height before it is measured (name, preview and one line of chips) */
export const TICKET_ROW_ESTIMATE = 108;

/** rows drawn before the virtualized rows have arrived: what a tall screen holds (each row costs the first render) */
export const PLAIN_ROWS = 15;

type TVirtualRows = typeof import('./VirtualTicketRows').VirtualTicketRows;

let loaded: TVirtualRows | null = null;
let loading: Promise<TVirtualRows> | null = null;

/**
 * The virtualized rows' chunk (@tanstack/react-virtual, 9 KB of brotli), fetched once the first screen has shown:
 * the inbox's first list does not wait for it (issue 23's budget). A failed fetch is tried again by the next list.
 */
const loadVirtualRows = () => {
  loading ??= afterFirstScreen()
    .then(() => import('./VirtualTicketRows'))
    .then(
      (module) => {
        loaded = module.VirtualTicketRows;
        return loaded;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );

  return loading;
};

/** the virtualized rows' component once its chunk is there, null before */
export const useVirtualRows = (): TVirtualRows | null => {
  const [rows, setRows] = useState<TVirtualRows | null>(() => loaded);
  useEffect(() => {
    if (rows) return;
    let live = true;
    loadVirtualRows().then(
      (component) => live && setRows(() => component),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [rows]);

  return rows;
};

type PlainTicketRowsProps = { tickets: TTicket[]; renderRow: (ticket: TTicket) => ReactNode };

/**
 * The list's first rows while the virtualized rows load: the first `PLAIN_ROWS` in the page's flow and the room the
 * others will take (estimated), so the list scrolls and pages as it will; a 10,000-ticket page draws 15 rows.
 */
export const PlainTicketRows = ({ tickets, renderRow }: PlainTicketRowsProps) => (
  <Box role="list">
    {tickets.slice(0, PLAIN_ROWS).map((ticket, index) => (
      <Box key={ticket.id} role="listitem" data-index={index}>
        {renderRow(ticket)}
      </Box>
    ))}
    {tickets.length > PLAIN_ROWS ? (
      <Box aria-hidden sx={{ height: (tickets.length - PLAIN_ROWS) * TICKET_ROW_ESTIMATE }} />
    ) : null}
  </Box>
);
