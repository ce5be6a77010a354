import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TPlan, TPlanBody } from '@zelo/shared';
import { api } from '../../../api/http';

export const PLANS_QUERY_KEY = ['settings', 'plans', 'all'] as const;

/** GET /plans/all (super). */
export const usePlans = (enabled = true) =>
  useQuery({
    queryKey: PLANS_QUERY_KEY,
    enabled,
    queryFn: () => api.get<TPlan[]>('/plans/all'),
  });

export const useSavePlan = () => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TPlanBody }) =>
      id === null ? api.post<TPlan>('/plans', body) : api.put<TPlan>(`/plans/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PLANS_QUERY_KEY }),
  });
};

export const useDeletePlan = () => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (id: number) => api.delete(`/plans/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PLANS_QUERY_KEY }),
  });
};
