import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../api/http';
import { toastError } from '../../components/toast';

export type TOption = { id: number; name: string; color?: string };

/**
 * A list for a select from an endpoint that may not exist (prompts and integrations arrive with their plans):
 * a 404 or 403 reads as an empty list; an answer may be the array or an object holding it (`{prompts: []}`).
 */
export const useOptions = (url: string, enabled = true) =>
  useQuery({
    queryKey: ['connections', 'options', url],
    enabled,
    staleTime: 30_000,
    retry: false,
    queryFn: async (): Promise<TOption[]> => {
      try {
        const data = await api.get<unknown>(url);
        const list = Array.isArray(data)
          ? data
          : Object.values((data ?? {}) as Record<string, unknown>).find((v) => Array.isArray(v));

        return Array.isArray(list)
          ? (list as TOption[])
              .filter((o) => o && typeof o.id === 'number')
              .map((o) => ({ ...o, name: String(o.name ?? o.id) }))
          : [];
      } catch (err) {
        if (!(err instanceof ApiError && (err.status === 404 || err.status === 403))) {
          toastError(err);
        }

        return [];
      }
    },
  });
