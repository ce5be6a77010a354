import { Box } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { RefObject } from 'react';
import { TicketRow } from './TicketRow';
import { TICKET_ROW_ESTIMATE, type TTicketRowsProps } from './ticketRows';

/** A long ticket list, virtualized: only the rows in view and a few around them, each measured as it renders (its chips wrap). */
export const VirtualTicketRows = ({
  tickets,
  selectedUuid,
  busyId,
  rowProps,
  scrollRef,
}: TTicketRowsProps & { scrollRef: RefObject<HTMLDivElement | null> }) => {
  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TICKET_ROW_ESTIMATE,
    getItemKey: (index) => tickets[index]?.id ?? index,
    overscan: 5,
  });

  return (
    <Box role="list" sx={{ position: 'relative', height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => {
        const ticket = tickets[item.index];

        return (
          <Box
            key={item.key}
            role="listitem"
            data-index={item.index}
            ref={virtualizer.measureElement}
            sx={{ position: 'absolute', top: 0, left: 0, width: '100%' }}
            style={{ transform: `translateY(${item.start}px)` }}
          >
            <TicketRow
              ticket={ticket}
              selected={ticket.uuid === selectedUuid}
              busy={busyId === ticket.id}
              {...rowProps}
            />
          </Box>
        );
      })}
    </Box>
  );
};
