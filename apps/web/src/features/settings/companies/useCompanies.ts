import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCompany, TCompanyUpdateBody } from '@zelo/shared';
import { api } from '../../../api/http';

export const COMPANIES_QUERY_KEY = ['settings', 'companies', 'list'] as const;

/** GET /companies/list (super): every company. */
export const useCompanies = () =>
  useQuery({
    queryKey: COMPANIES_QUERY_KEY,
    queryFn: () => api.get<TCompany[]>('/companies/list'),
  });

/** POST /companies (creates the first admin too) or PUT /companies/:id. */
export const useSaveCompany = () => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TCompanyUpdateBody }) =>
      id === null ? api.post<TCompany>('/companies', body) : api.put<TCompany>(`/companies/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: COMPANIES_QUERY_KEY }),
  });
};

export const useDeleteCompany = () => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (id: number) => api.delete(`/companies/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: COMPANIES_QUERY_KEY }),
  });
};
