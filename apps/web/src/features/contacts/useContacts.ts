import { events, type TContact } from '@zelo/shared';
import { useState } from 'react';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { useLiveList } from '../../components/kit';
import { CONTACTS_QUERY_KEY, matchesContactSearch } from './contactsCache';

const CONTACTS_LIST = {
  queryKey: CONTACTS_QUERY_KEY,
  itemsKey: 'contacts',
  matches: matchesContactSearch,
};

export type TImportProgress = { done: number; total: number };

type TContactEvent =
  | { action: 'create' | 'update'; contact: TContact }
  | { action: 'delete'; contactId: number }
  | { action: 'import-progress'; done: number; total: number };

/**
 * GET /contacts page by page, kept in step with saves, deletes and `company-{id}-contact` events; the same
 * event carries the progress of an import.
 */
export const useContacts = (searchParam: string) => {
  const { user } = useAuth();
  const event = user ? events.contact(user.companyId) : '';
  const list = useLiveList<TContact, TContactEvent>({
    ...CONTACTS_LIST,
    path: '/contacts',
    searchParam,
    event: events.contact,
    toChange: (data) => {
      if (data.action === 'delete') {
        return { remove: Number(data.contactId) };
      }

      return data.action !== 'import-progress' && data.contact ? { upsert: data.contact } : null;
    },
  });
  const [progress, setProgress] = useState<TImportProgress | null>(null);
  useSocketEvent(event, (data: TContactEvent) => {
    if (data.action === 'import-progress') {
      setProgress({ done: data.done, total: data.total });
    }
  });

  return {
    ...list,
    progress,
    resetProgress: () => setProgress(null),
    save: async (id: number | null, body: unknown) => {
      const saved =
        id === null ? await api.post<TContact>('/contacts', body) : await api.put<TContact>(`/contacts/${id}`, body);
      list.upsert(saved);
    },
  };
};
