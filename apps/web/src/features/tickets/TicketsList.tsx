import { Box, CircularProgress, Typography } from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { Suspense, useMemo, useRef } from 'react';
import { lazyNamed } from '../../components/lazyPart';
import { useTranslation } from '../../i18n/useTranslation';
import { useInfiniteScroll } from '../../hooks/useInfiniteScroll';
import { TicketRow } from './TicketRow';
import { flattenTickets } from './ticketListReducer';
import type { TTicketListFilter } from './ticketTypes';
import { type TTicketRowsProps, TICKETS_VIRTUALIZED_AFTER } from './ticketRows';
import { useTicketList } from './useTicketList';

const VirtualTicketRows = lazyNamed(() => import('./VirtualTicketRows'), 'VirtualTicketRows');

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

/** every row in the DOM: the first pages (up to `TICKETS_VIRTUALIZED_AFTER` tickets) */
const AllTicketRows = ({ tickets, selectedUuid, busyId, rowProps }: TTicketRowsProps) => (
  <Box role="list">
    {tickets.map((ticket, index) => (
      <Box key={ticket.id} role="listitem" data-index={index}>
        <TicketRow ticket={ticket} selected={ticket.uuid === selectedUuid} busy={busyId === ticket.id} {...rowProps} />
      </Box>
    ))}
  </Box>
);

/**
 * An infinite-scroll ticket list (next page within 100 px of the end). The first pages render whole; past
 * `TICKETS_VIRTUALIZED_AFTER` tickets the list is virtualized (VirtualTicketRows.tsx, loaded then: the inbox's
 * first load does without the virtualizer, issue 23): only the rows in view and a few around them are in the DOM,
 * so ten thousand loaded tickets scroll like forty.
 */
export const TicketsList = ({ filter, enabled, selectedUuid, testId, busyId, ...rowProps }: TicketsListProps) => {
  const { t } = useTranslation();
  const query = useTicketList(filter, enabled);
  const tickets = useMemo(() => flattenTickets(query.data), [query.data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const onScroll = useInfiniteScroll(() => void query.fetchNextPage(), {
    hasMore: Boolean(query.hasNextPage),
    loading: query.isFetching,
  });
  const rows: TTicketRowsProps = { tickets, selectedUuid, busyId, rowProps };

  return (
    <Box
      ref={scrollRef}
      onScroll={onScroll}
      sx={{ flex: 1, minHeight: 0, overflowY: 'auto', overflowAnchor: 'none' }}
      data-testid={testId}
      data-count={tickets.length}
    >
      {tickets.length > TICKETS_VIRTUALIZED_AFTER ? (
        <Suspense fallback={<AllTicketRows {...rows} />}>
          <VirtualTicketRows {...rows} scrollRef={scrollRef} />
        </Suspense>
      ) : (
        <AllTicketRows {...rows} />
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
