import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import type { TRecord } from './listCache';
import { type TListCacheTarget, type TListChange, useListCache } from './useListCache';
import { type TInfiniteListOptions, useInfiniteList } from './useInfiniteList';

export type TLiveListOptions<T, TEvent> = TListCacheTarget<T> &
  Pick<TInfiniteListOptions, 'path' | 'searchParam' | 'params' | 'enabled'> & {
    /** the company's realtime event for this list (`events.prompt`…) */
    event: (companyId: number) => string;
    toChange: (data: TEvent) => TListChange<T>;
    /** DELETE path of one record; `path/:id` when absent */
    deletePath?: (id: number) => string;
  };

/**
 * A list screen's data in one call: the paged API list (`useInfiniteList`), kept live by the company's event and by
 * saves (`useListCache`), and `remove` that deletes on the server then from every loaded page.
 *
 *   const list = useLiveList<TPrompt, TPromptEvent>({ ...PROMPTS, path: '/prompt', searchParam,
 *     event: events.prompt, toChange: promptEventChange });
 */
export const useLiveList = <T extends TRecord, TEvent = unknown>(options: TLiveListOptions<T, TEvent>) => {
  const { user } = useAuth();
  const { event, toChange, deletePath, ...listOptions } = options;
  const list = useInfiniteList<T>(listOptions);
  const cache = useListCache<T, TEvent>(options, { event: user ? event(user.companyId) : '', toChange });

  return {
    ...list,
    upsert: cache.upsert,
    /** takes a record out of the loaded pages only (it is gone already) */
    forget: cache.remove,
    remove: async (id: number) => {
      await api.delete(deletePath ? deletePath(id) : `${options.path}/${id}`);
      cache.remove(id);
    },
  };
};
