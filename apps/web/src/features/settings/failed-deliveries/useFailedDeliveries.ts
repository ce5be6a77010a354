import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFailedDelivery, TFailedDeliveryCounts, TFailedDeliveryRetry } from '@zelo/shared';
import { api } from '../../../api/http';
import { useInfiniteList } from '../../../components/kit';

const ROOT_KEY = ['failed-deliveries'] as const;
export const FAILED_DELIVERIES_QUERY_KEY = [...ROOT_KEY, 'page'] as const;

/** GET /failed-deliveries: the company's dead-letter list, page after page. */
export const useFailedDeliveries = () =>
  useInfiniteList<TFailedDelivery>({
    queryKey: FAILED_DELIVERIES_QUERY_KEY,
    path: '/failed-deliveries',
    itemsKey: 'failedDeliveries',
  });

/** GET /failed-deliveries/counts (super user): how many each company has. */
export const useFailedDeliveryCounts = (enabled: boolean) =>
  useQuery({
    queryKey: [...ROOT_KEY, 'counts'],
    queryFn: () => api.get<TFailedDeliveryCounts>('/failed-deliveries/counts'),
    enabled,
  });

export const useRefreshFailedDeliveries = () => {
  const queryClient = useQueryClient();

  return () => queryClient.invalidateQueries({ queryKey: ROOT_KEY });
};

export const useRetryFailedDelivery = () => {
  const refresh = useRefreshFailedDeliveries();

  return useMutation({
    mutationFn: (id: number) => api.post<TFailedDeliveryRetry>(`/failed-deliveries/${id}/retry`),
    onSettled: () => refresh(),
  });
};

export const useDiscardFailedDelivery = () => {
  const refresh = useRefreshFailedDeliveries();

  return useMutation({
    mutationFn: (id: number) => api.delete(`/failed-deliveries/${id}`),
    onSettled: () => refresh(),
  });
};
