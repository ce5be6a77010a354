import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { THelp, THelpBody } from '@zelo/shared';
import { api } from '../../../api/http';

/** the helps page (features/helps) keeps its list under the same root key, so saves here refresh it too */
const HELPS_ROOT_KEY = ['helps'] as const;
const HELPS_ADMIN_KEY = [...HELPS_ROOT_KEY, 'admin'] as const;

/** GET /helps. */
export const useHelpsAdmin = () =>
  useQuery({
    queryKey: HELPS_ADMIN_KEY,
    queryFn: () => api.get<THelp[]>('/helps'),
  });

export const useSaveHelp = () => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: THelpBody }) =>
      id === null ? api.post<THelp>('/helps', body) : api.put<THelp>(`/helps/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: HELPS_ROOT_KEY }),
  });
};

export const useDeleteHelp = () => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (id: number) => api.delete(`/helps/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: HELPS_ROOT_KEY }),
  });
};
