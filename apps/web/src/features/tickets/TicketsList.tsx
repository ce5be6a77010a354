import { Box, CircularProgress, Typography } from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { useMemo, useRef } from 'react';
import { useTranslation } from '../../i18n/useTranslation';
import { useInfiniteScroll } from '../../hooks/useInfiniteScroll';
import { TicketRow } from './TicketRow';
import { flattenTickets } from './ticketListReducer';
import { PlainTicketRows, useVirtualRows } from './ticketRows';
import type { TTicketListFilter } from './ticketTypes';
import { useTicketList } from './useTicketList';

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
 * An infinite-scroll ticket list (next page within 100 px of the end), virtualized (VirtualTicketRows.tsx): only
 * the rows in view and a few around them are in the DOM, so ten thousand loaded tickets scroll like forty. Until the
 * virtualized rows' chunk has arrived (after the first screen, ticketRows.tsx) the first rows are drawn plainly.
 */
export const TicketsList = ({ filter, enabled, selectedUuid, testId, busyId, ...rowProps }: TicketsListProps) => {
  const { t } = useTranslation();
  const query = useTicketList(filter, enabled);
  const tickets = useMemo(() => flattenTickets(query.data), [query.data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const VirtualRows = useVirtualRows();
  const renderRow = (ticket: TTicket) => (
    <TicketRow ticket={ticket} selected={ticket.uuid === selectedUuid} busy={busyId === ticket.id} {...rowProps} />
  );
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
      {VirtualRows ? (
        <VirtualRows tickets={tickets} scrollRef={scrollRef} renderRow={renderRow} />
      ) : (
        <PlainTicketRows tickets={tickets} renderRow={renderRow} />
      )}
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
