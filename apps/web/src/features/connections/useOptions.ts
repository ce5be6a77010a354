import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../api/http';
import { toastError } from '../../components/toast';

export type TOption = { id: number; name: string; color?: string };

/** a select never needs more than this many pages of a paged list (40 a page: 2,000 options) */
const MAX_PAGES = 50;

const optionsOf = (data: unknown): TOption[] => {
  const list = Array.isArray(data)
    ? data
    : Object.values((data ?? {}) as Record<string, unknown>).find((v) => Array.isArray(v));

  return Array.isArray(list)
    ? (list as TOption[])
        .filter((o) => o && typeof o.id === 'number')
        .map((o) => ({ ...o, name: String(o.name ?? o.id) }))
    : [];
};

/**
 * Every option an endpoint lists: the array it answers, or the array inside its object (`{prompts: []}`); a paged
 * answer (`hasMore`) is followed page by page, so a select offers the 41st flow too.
 */
export const fetchOptions = async (url: string): Promise<TOption[]> => {
  const options: TOption[] = [];
  for (let pageNumber = 1; pageNumber <= MAX_PAGES; pageNumber++) {
    const data = await api.get<unknown>(url, pageNumber > 1 ? { params: { pageNumber } } : undefined);
    options.push(...optionsOf(data));
    if ((data as { hasMore?: unknown } | null)?.hasMore !== true) {
      break;
    }
  }

  return options;
};

/**
 * A list for a select from an endpoint that may not exist (prompts and integrations arrive with their plans):
 * a 404 or 403 reads as an empty list.
 */
export const useOptions = (url: string, enabled = true) =>
  useQuery({
    queryKey: ['connections', 'options', url],
    enabled,
    staleTime: 30_000,
    retry: false,
    queryFn: async (): Promise<TOption[]> => {
      try {
        return await fetchOptions(url);
      } catch (err) {
        if (!(err instanceof ApiError && (err.status === 404 || err.status === 403))) {
          toastError(err);
        }

        return [];
      }
    },
  });
