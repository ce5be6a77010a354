import { Box, CircularProgress, List, Typography } from '@mui/material';
import type { TTicket } from '@zelo/shared';
import { useTranslation } from 'react-i18next';
import { useInfiniteScroll } from '../../hooks/useInfiniteScroll';
import { TicketRow } from './TicketRow';
import { flattenTickets } from './ticketListReducer';
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

/** An infinite-scroll ticket list (next page within 100 px of the end). */
export const TicketsList = ({ filter, enabled, selectedUuid, testId, busyId, ...rowProps }: TicketsListProps) => {
  const { t } = useTranslation();
  const query = useTicketList(filter, enabled);
  const tickets = flattenTickets(query.data);
  const onScroll = useInfiniteScroll(() => void query.fetchNextPage(), {
    hasMore: Boolean(query.hasNextPage),
    loading: query.isFetching,
  });

  return (
    <Box onScroll={onScroll} sx={{ flex: 1, minHeight: 0, overflowY: 'auto' }} data-testid={testId}>
      <List disablePadding>
        {tickets.map((ticket) => (
          <TicketRow
            key={ticket.id}
            ticket={ticket}
            selected={ticket.uuid === selectedUuid}
            busy={busyId === ticket.id}
            {...rowProps}
          />
        ))}
      </List>
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
