import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TContact } from '@zelo/shared';
import { useCallback, useState } from 'react';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import {
  CONTACTS_QUERY_KEY,
  removeContact,
  searchOfContactsKey,
  type TContactsData,
  type TContactsPage,
  upsertContact,
} from './contactsCache';

/** GET /contacts, next page while hasMore. */
export const useContacts = (searchParam: string) =>
  useInfiniteQuery({
    queryKey: [...CONTACTS_QUERY_KEY, searchParam],
    queryFn: ({ pageParam }) => api.get<TContactsPage>('/contacts', { params: { searchParam, pageNumber: pageParam } }),
    initialPageParam: 1,
    getNextPageParam: (lastPage, pages) => (lastPage.hasMore ? pages.length + 1 : undefined),
  });

export type TImportProgress = { done: number; total: number };

type TContactEvent =
  | { action: 'create' | 'update'; contact: TContact }
  | { action: 'delete'; contactId: number }
  | { action: 'import-progress'; done: number; total: number };

/** Keeps every loaded contacts list in step with `company-{id}-contact`; answers the import progress. */
export const useContactEvents = () => {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<TImportProgress | null>(null);

  const onEvent = useCallback(
    (data: TContactEvent) => {
      if (data.action === 'import-progress') {
        setProgress({ done: data.done, total: data.total });

        return;
      }
      if (data.action === 'delete') {
        queryClient.setQueriesData<TContactsData>({ queryKey: CONTACTS_QUERY_KEY }, (old) =>
          removeContact(old, Number(data.contactId)),
        );

        return;
      }
      if ((data.action === 'create' || data.action === 'update') && data.contact) {
        for (const query of queryClient.getQueryCache().findAll({ queryKey: CONTACTS_QUERY_KEY })) {
          queryClient.setQueryData<TContactsData>(query.queryKey, (old) =>
            upsertContact(old, data.contact, searchOfContactsKey(query.queryKey)),
          );
        }
      }
    },
    [queryClient],
  );

  useSocketEvent(user ? events.contact(user.companyId) : '', onEvent);

  return { progress, resetProgress: () => setProgress(null) };
};
