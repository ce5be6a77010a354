import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { toastError } from '../../components/toast';

export type TOption = { id: number; name: string; color?: string };

const isNotFound = (err: unknown) => (err as { status?: number } | null)?.status === 404;

/**
 * A list for a select that may not exist on the server yet (queues and connections land later):
 * a 404 reads as an empty list without a toast; any other failure is reported once and also reads as empty.
 */
export const useOptionList = (url: string, params?: Record<string, unknown>) =>
  useQuery({
    queryKey: ['user-dialog-options', url, params ?? {}],
    staleTime: 30_000,
    retry: false,
    queryFn: async (): Promise<TOption[]> => {
      try {
        const list = await api.get<TOption[]>(url, { params });

        return Array.isArray(list) ? list : [];
      } catch (err) {
        if (!isNotFound(err)) {
          toastError(err);
        }

        return [];
      }
    },
  });
