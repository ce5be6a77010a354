import { useInfiniteQuery } from '@tanstack/react-query';
import { PAGE_SIZE } from '@zelo/shared';
import { ticketListKey } from './queryKeys';
import { ticketsApi } from './ticketsApi';
import type { TTicketListFilter } from './ticketTypes';

/** One ticket list (GET /tickets, 40 per page), next page while hasMore. */
export const useTicketList = (filter: TTicketListFilter, enabled = true) =>
  useInfiniteQuery({
    queryKey: ticketListKey(filter),
    enabled,
    queryFn: ({ pageParam }) => ticketsApi.list(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages) =>
      lastPage.hasMore && lastPage.tickets.length > 0 && pages.length < 10_000 / PAGE_SIZE.tickets
        ? pages.length + 1
        : undefined,
  });
