import { Box, CircularProgress, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TTicket } from '@zelo/shared';
import { useMemo, useRef } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useInfiniteScroll } from '../../hooks/useInfiniteScroll';
import { TicketRow } from './TicketRow';
import { flattenTickets } from './ticketListReducer';
import type { TTicketListFilter } from './ticketTypes';
import { useTicketList } from './useTicketList';

/** a row's height before it is measured (name, preview and one line of chips) */
export const TICKET_ROW_ESTIMATE = 108;

type TicketsListProps = {
  filter: TTicketListFilter;
  enabled: boolean;
  selectedUuid?: string;
  narrow: boolean;
  isAdmin: boolean;
  busyId: number | null;
  testId: string;
  onOpen: (ticket: TTicket) => void;
  onAccept: (ticket: TTicket) => void;
  onClose: (ticket: TTicket) => void;
  onReopen: (ticket: TTicket) => void;
  onPeek: (ticket: TTicket) => void;
};

/**
 * An infinite-scroll ticket list (next page within 100 px of the end), virtualized: only the rows in view and a
 * few around them are in the DOM, each measured as it renders (its chips wrap), so ten thousand loaded tickets
 * scroll like forty.
 */
export const TicketsList = ({ filter, enabled, selectedUuid, testId, busyId, ...rowProps }: TicketsListProps) => {
  const { t } = useTranslation();
  const query = useTicketList(filter, enabled);
  const tickets = useMemo(() => flattenTickets(query.data), [query.data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TICKET_ROW_ESTIMATE,
    getItemKey: (index) => tickets[index]?.id ?? index,
    overscan: 5,
  });
  const onScroll = useInfiniteScroll(() => void query.fetchNextPage(), {
    hasMore: Boolean(query.hasNextPage),
    loading: query.isFetching,
  });

  return (
    <Box
      ref={scrollRef}
      onScroll={onScroll}
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto', overflowAnchor: 'none' }}
      data-testid={testId}
      data-count={tickets.length}
    >
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
      {query.isLoading || query.isFetchingNextPage ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <CircularProgress size={24} />
        </Box>
      ) : null}
      {!query.isLoading && tickets.length === 0 ? (
        <Box sx={{ p: 3, textAlign: 'center' }} data-testid={`${testId}-empty`}>
          <Typography variant="subtitle2">{t('tickets.empty')}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('tickets.emptyHint')}
          </Typography>
        </Box>
      ) : null}
    </Box>
  );
};
