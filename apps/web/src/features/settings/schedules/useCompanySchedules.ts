import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCompany, TWorkingHour } from '@zelo/shared';
import { api } from '../../../api/http';

const companyKey = (companyId: number) => ['settings', 'company', companyId] as const;

/** GET /companies/:id for the company's stored working hours. */
export const useCompany = (companyId: number | undefined) =>
  useQuery({
    queryKey: companyKey(companyId ?? 0),
    enabled: Boolean(companyId),
    queryFn: () => api.get<TCompany>(`/companies/${companyId}`),
  });

/** PUT /companies/:id/schedules `{schedules}`. */
export const useSaveCompanySchedules = (companyId: number | undefined) => {
  const queryClient = useQueryClient();

  return useMutation({
    mutationFn: (schedules: TWorkingHour[]) => api.put<TCompany>(`/companies/${companyId}/schedules`, { schedules }),
    onSuccess: (company) => {
      if (company && typeof company === 'object' && companyId) {
        queryClient.setQueryData(companyKey(companyId), company);
      }
    },
  });
};
