import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useSocketEvent } from '../../api/socket';
import { removeFromList, type TListData, type TRecord, upsertInList } from './listCache';
import { searchOfListKey } from './useInfiniteList';

export type TListCacheTarget<T> = {
  queryKey: QueryKey;
  itemsKey: string;
  /** whether a record not yet listed belongs in a list searched with `search` */
  matches?: (record: T, search: string) => boolean;
};

/** Applies a saved record to every loaded list under `queryKey`: merged by id, or put first where it matches. */
export const upsertInLists = <T extends TRecord>(queryClient: QueryClient, target: TListCacheTarget<T>, record: T) => {
  for (const [key, data] of queryClient.getQueriesData<TListData<T>>({ queryKey: target.queryKey })) {
    const search = searchOfListKey(target.queryKey, key);
    const next = upsertInList(data, target.itemsKey, record, (r) => target.matches?.(r, search) ?? true);
    if (next !== data) {
      queryClient.setQueryData(key, next);
    }
  }
};

/** Takes a record out of every loaded list under `queryKey`. */
export const removeFromLists = <T extends TRecord>(
  queryClient: QueryClient,
  target: TListCacheTarget<T>,
  id: TRecord['id'],
) => {
  queryClient.setQueriesData<TListData<T>>({ queryKey: target.queryKey }, (old) =>
    removeFromList(old, target.itemsKey, id),
  );
};

/** What a realtime event means for a list: a record to merge or put first, an id to remove, or nothing. */
export type TListChange<T> = { upsert: T } | { remove: TRecord['id'] } | null;

/**
 * The list's cache helpers bound to one target, and (with `event`) its realtime updates:
 *
 *   const cache = useListCache({ queryKey: TAGS_KEY, itemsKey: 'tags', matches }, {
 *     event: events.tag(companyId),
 *     toChange: (data) => (data.action === 'delete' ? { remove: data.tagId } : { upsert: data.tag }),
 *   });
 *   cache.upsert(savedTag);
 */
export const useListCache = <T extends TRecord, TEvent = unknown>(
  target: TListCacheTarget<T>,
  live?: { event: string; toChange: (data: TEvent) => TListChange<T> },
) => {
  const queryClient = useQueryClient();
  // targets and handlers are usually inline objects: read the latest through refs, keep the callbacks stable
  const targetRef = useRef(target);
  targetRef.current = target;
  const toChangeRef = useRef(live?.toChange);
  toChangeRef.current = live?.toChange;

  const upsert = useCallback((record: T) => upsertInLists(queryClient, targetRef.current, record), [queryClient]);
  const remove = useCallback((id: TRecord['id']) => removeFromLists(queryClient, targetRef.current, id), [queryClient]);
  useSocketEvent(live?.event ?? '', (data: TEvent) => {
    const change = toChangeRef.current?.(data);
    if (!change) {
      return;
    }
    if ('upsert' in change) {
      upsert(change.upsert);
    } else {
      remove(change.remove);
    }
  });

  return { upsert, remove };
};
