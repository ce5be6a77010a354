import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TQueueOption } from '@zelo/shared';
import { api } from '../../api/http';

/** One level of a queue's options tree: the top (parentId null) or the children of an option. */
export const optionsLevelKey = (queueId: number, parentId: number | null) =>
  ['queues', 'options', queueId, parentId ?? -1] as const;

export type TOptionFields = { title: string; message: string };

/**
 * GET /queue-options?queueId&parentId (-1 for the top), asked when the level is first shown: an option's
 * children when it is expanded.
 */
export const useOptionsLevel = (queueId: number, parentId: number | null) => {
  const query = useQuery({
    queryKey: optionsLevelKey(queueId, parentId),
    queryFn: () => api.get<TQueueOption[]>('/queue-options', { params: { queueId, parentId: parentId ?? -1 } }),
  });

  return { options: query.data ?? [], isLoading: query.isLoading };
};

/**
 * The tree's writes. Each reloads the level it touched, since option numbers are the server's: a new option
 * takes the next number of its level, and a delete renumbers the remaining siblings 1..n.
 */
export const optionsWrites = (queryClient: QueryClient, queueId: number) => {
  const reload = (parentId: number | null) =>
    queryClient.invalidateQueries({ queryKey: optionsLevelKey(queueId, parentId), exact: true });

  return {
    add: async (parentId: number | null, fields: TOptionFields) => {
      await api.post<TQueueOption>('/queue-options', { queueId, parentId, ...fields });
      await reload(parentId);
    },
    update: async (option: TQueueOption, fields: TOptionFields) => {
      const saved = await api.put<TQueueOption>(`/queue-options/${option.id}`, fields);
      queryClient.setQueryData<TQueueOption[]>(optionsLevelKey(queueId, option.parentId), (old) =>
        old?.map((o) => (o.id === saved.id ? saved : o)),
      );
    },
    remove: async (option: TQueueOption) => {
      await api.delete(`/queue-options/${option.id}`);
      // its sub-levels went with it
      queryClient.removeQueries({ queryKey: optionsLevelKey(queueId, option.id) });
      await reload(option.parentId);
    },
  };
};

export const useOptionsWrites = (queueId: number) => optionsWrites(useQueryClient(), queueId);
