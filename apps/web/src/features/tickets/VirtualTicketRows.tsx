import { Box } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TTicket } from '@zelo/shared';
import type { ReactNode, RefObject } from 'react';
import { TICKET_ROW_ESTIMATE } from './ticketRows';

type VirtualTicketRowsProps = {
  tickets: TTicket[];
  scrollRef: RefObject<HTMLDivElement | null>;
  renderRow: (ticket: TTicket) => ReactNode;
};

/**
 * The ticket list's rows, virtualized: only the rows in view and a few around them are in the DOM, each measured as
 * it renders (its chips wrap), so ten thousand loaded tickets scroll like forty. Its own chunk with
 * @tanstack/react-virtual (ticketRows.ts loads it once the first screen has shown); it starts where the list is
 * scrolled to, as the list may have been scrolled before it arrived.
 */
export const VirtualTicketRows = ({ tickets, scrollRef, renderRow }: VirtualTicketRowsProps) => {
  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TICKET_ROW_ESTIMATE,
    getItemKey: (index) => tickets[index]?.id ?? index,
    initialOffset: () => scrollRef.current?.scrollTop ?? 0,
    overscan: 5,
  });

  return (
    <Box role="list" sx={{ position: 'relative', height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => (
        <Box
          key={item.key}
          role="listitem"
          data-index={item.index}
          ref={virtualizer.measureElement}
          sx={{ position: 'absolute', top: 0, left: 0, width: '100%' }}
          style={{ transform: `translateY(${item.start}px)` }}
        >
          {renderRow(tickets[item.index])}
        </Box>
      ))}
    </Box>
  );
};
