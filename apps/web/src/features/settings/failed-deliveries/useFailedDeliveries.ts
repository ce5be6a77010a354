import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFailedDeliveryCounts, TFailedDeliveryPage, TFailedDeliveryRetry } from '@zelo/shared';
import { api } from '../../../api/http';

const ROOT_KEY = ['failed-deliveries'] as const;

/** GET /failed-deliveries: the company's dead-letter list, one page. */
export const useFailedDeliveries = (pageNumber: number) =>
  useQuery({
    queryKey: [...ROOT_KEY, 'page', pageNumber],
    queryFn: () => api.get<TFailedDeliveryPage>(`/failed-deliveries?pageNumber=${pageNumber}`),
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
