import { events, type TTag } from '@zelo/shared';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { matchesSearch, useInfiniteList, useListCache } from '../../components/kit';

export const TAGS_QUERY_KEY = ['tags', 'page'] as const;

const TAGS_LIST = {
  queryKey: TAGS_QUERY_KEY,
  itemsKey: 'tags',
  matches: (tag: TTag, search: string) => matchesSearch(search, tag.name),
};

type TTagEvent = { action: 'create' | 'update'; tag: TTag } | { action: 'delete'; tagId: number };

/** GET /tags page by page (with ticket counts), kept in step with saves, deletes and `company-{id}-tag` events. */
export const useTags = (searchParam: string) => {
  const { user } = useAuth();
  const list = useInfiniteList<TTag>({ ...TAGS_LIST, path: '/tags', searchParam });
  const cache = useListCache<TTag, TTagEvent>(TAGS_LIST, {
    event: user ? events.tag(user.companyId) : '',
    toChange: (data) => (data.action === 'delete' ? { remove: data.tagId } : { upsert: data.tag }),
  });

  return {
    ...list,
    save: async (id: number | null, body: unknown) => {
      const saved = id === null ? await api.post<TTag>('/tags', body) : await api.put<TTag>(`/tags/${id}`, body);
      cache.upsert(saved);
    },
    remove: async (id: number) => {
      await api.delete(`/tags/${id}`);
      cache.remove(id);
    },
  };
};
