import { useQueryClient } from '@tanstack/react-query';
import {
  events,
  type TContactList,
  type TContactListBody,
  type TContactListEvent,
  type TContactListItem,
  type TContactListItemEvent,
  type TContactListItemFields,
} from '@zelo/shared';
import { useState } from 'react';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { matchesSearch, useInfiniteList, useListCache, useLiveList } from '../../components/kit';

export const CONTACT_LISTS_QUERY_KEY = ['contact-lists', 'page'] as const;
export const contactListQueryKey = (id: number) => ['contact-lists', 'one', id] as const;
export const contactListItemsQueryKey = (contactListId: number) => ['contact-list-items', contactListId] as const;

const LISTS = {
  queryKey: CONTACT_LISTS_QUERY_KEY,
  itemsKey: 'records',
  matches: (list: TContactList, search: string) => matchesSearch(search, list.name),
};

/** GET /contact-lists page by page (with item counts), kept in step with saves, deletes and `ContactList` events. */
export const useContactLists = (searchParam: string) => {
  const list = useLiveList<TContactList, TContactListEvent>({
    ...LISTS,
    path: '/contact-lists',
    searchParam,
    event: events.contactList,
    toChange: (data) => (data.action === 'delete' ? { remove: data.id } : { upsert: data.record }),
  });

  return {
    ...list,
    save: async (id: number | null, body: TContactListBody) => {
      const saved =
        id === null
          ? await api.post<TContactList>('/contact-lists', body)
          : await api.put<TContactList>(`/contact-lists/${id}`, body);
      list.upsert(saved);
    },
  };
};

export type TImportProgress = { done: number; total: number };

/**
 * GET /contact-list-items of one list page by page, kept in step with saves, deletes and `ContactListItem`
 * events: a record merged or removed, a `reload` (import, validity check) refetches, an import's progress is kept.
 */
export const useContactListItems = (contactListId: number, searchParam: string) => {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<TImportProgress | null>(null);
  const target = {
    queryKey: contactListItemsQueryKey(contactListId),
    itemsKey: 'contacts',
    matches: (item: TContactListItem, search: string) => matchesSearch(search, item.name, item.number, item.email),
  };
  const list = useInfiniteList<TContactListItem>({
    ...target,
    path: '/contact-list-items',
    searchParam,
    params: { contactListId },
  });
  const event = user ? events.contactListItem(user.companyId) : '';
  const cache = useListCache<TContactListItem, TContactListItemEvent>(target, {
    event,
    toChange: (data) => {
      if (data.action === 'delete') {
        return data.contactListId === contactListId ? { remove: data.id } : null;
      }
      if (data.action === 'create' || data.action === 'update') {
        return data.record.contactListId === contactListId ? { upsert: data.record } : null;
      }

      return null;
    },
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: contactListItemsQueryKey(contactListId) });
    void queryClient.invalidateQueries({ queryKey: contactListQueryKey(contactListId) });
  };
  useSocketEvent(event, (data: TContactListItemEvent) => {
    if (data.action === 'reload' && data.contactListId === contactListId) {
      refresh();
    } else if (data.action === 'import-progress' && data.contactListId === contactListId) {
      setProgress({ done: data.done, total: data.total });
    }
  });

  return {
    ...list,
    progress,
    resetProgress: () => setProgress(null),
    refresh,
    save: async (id: number | null, body: TContactListItemFields) => {
      const saved =
        id === null
          ? await api.post<TContactListItem>('/contact-list-items', { ...body, contactListId })
          : await api.put<TContactListItem>(`/contact-list-items/${id}`, body);
      cache.upsert(saved);
    },
    remove: async (id: number) => {
      await api.delete(`/contact-list-items/${id}`);
      cache.remove(id);
    },
    checkAgain: async (itemId?: number) => {
      await (itemId === undefined
        ? api.post(`/contact-lists/${contactListId}/check`)
        : api.post(`/contact-list-items/${itemId}/check`));
      refresh();
    },
  };
};
