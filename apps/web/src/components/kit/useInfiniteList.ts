import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { flattenList, type TListData, type TListPage } from './listCache';

export type TInfiniteListOptions = {
  /** the list's cache key; the search and params are appended to it */
  queryKey: QueryKey;
  /** API path, e.g. `/tags` */
  path: string;
  /** where the page's records are: `tags`, `records`… */
  itemsKey: string;
  searchParam?: string;
  /** further query parameters (filters) */
  params?: Record<string, string | number | boolean | undefined>;
  enabled?: boolean;
};

/** The full cache key of one list: `[...queryKey, searchParam, params]`. */
export const listKey = ({ queryKey, searchParam = '', params }: TInfiniteListOptions): QueryKey => [
  ...queryKey,
  searchParam,
  params ?? {},
];

/** The search a list key was made with (see `listKey`). */
export const searchOfListKey = (baseKey: QueryKey, key: QueryKey) => {
  const search = key[baseKey.length];

  return typeof search === 'string' ? search : '';
};

/**
 * A paged API list (`?searchParam&pageNumber` → `{[itemsKey], hasMore}`) as one growing array: the next page
 * is asked while `hasMore`.
 *
 *   const list = useInfiniteList<TTag>({ queryKey: ['tags'], path: '/tags', itemsKey: 'tags', searchParam });
 *   <DataTable rows={list.items} hasMore={list.hasMore} onLoadMore={list.loadMore} isLoading={list.isLoading} … />
 */
export const useInfiniteList = <T>(options: TInfiniteListOptions) => {
  const { path, itemsKey, searchParam = '', params, enabled = true } = options;
  const query = useInfiniteQuery({
    queryKey: listKey(options),
    queryFn: ({ pageParam }) =>
      api.get<TListPage<T>>(path, { params: { ...params, searchParam, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages) => (lastPage.hasMore ? pages.length + 1 : undefined),
    enabled,
  });
  const data = query.data as TListData<T> | undefined;

  return {
    query,
    items: flattenList<T>(data, itemsKey),
    count: data?.pages[0]?.count,
    hasMore: Boolean(query.hasNextPage),
    isLoading: query.isLoading || query.isFetchingNextPage,
    loadMore: () => {
      if (query.hasNextPage && !query.isFetchingNextPage) {
        void query.fetchNextPage();
      }
    },
  };
};
