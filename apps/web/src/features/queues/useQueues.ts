import { useInfiniteQuery } from '@tanstack/react-query';
import { events, type TQueue, type TQueueBody } from '@zelo/shared';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { flattenList, type TListData, type TListPage, useListCache } from '../../components/kit';
import { sortQueues } from './queueForm';

export const QUEUES_QUERY_KEY = ['queues', 'page'] as const;

const QUEUES_LIST = { queryKey: QUEUES_QUERY_KEY, itemsKey: 'queues' };

type TQueueEvent = { action: 'create' | 'update'; queue: TQueue } | { action: 'delete'; queueId: number };

/**
 * GET /queue (one answer, not paged: a company has a handful of queues) held as a one-page list, so the kit's
 * realtime reducer keeps it in step with saves, deletes and `company-{id}-queue` events; shown in menu order.
 */
export const useQueues = () => {
  const { user } = useAuth();
  const query = useInfiniteQuery({
    queryKey: QUEUES_QUERY_KEY,
    queryFn: async (): Promise<TListPage<TQueue>> => ({ queues: await api.get<TQueue[]>('/queue'), hasMore: false }),
    initialPageParam: 1,
    getNextPageParam: () => undefined,
  });
  const cache = useListCache<TQueue, TQueueEvent>(QUEUES_LIST, {
    event: user ? events.queue(user.companyId) : '',
    toChange: (data) => (data.action === 'delete' ? { remove: data.queueId } : { upsert: data.queue }),
  });

  return {
    items: sortQueues(flattenList<TQueue>(query.data as TListData<TQueue> | undefined, 'queues')),
    isLoading: query.isLoading,
    save: async (id: number | null, body: TQueueBody) => {
      const saved = id === null ? await api.post<TQueue>('/queue', body) : await api.put<TQueue>(`/queue/${id}`, body);
      cache.upsert(saved);

      return saved;
    },
    remove: async (id: number) => {
      await api.delete(`/queue/${id}`);
      cache.remove(id);
    },
  };
};
