import { useQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TQuickMessage } from '@zelo/shared';
import { useCallback } from 'react';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { catalogueKey } from './queryKeys';
import { asList, ticketsApi } from './ticketsApi';
import type { TQueueOption, TTagOption, TUserOption, TWhatsappOption } from './ticketTypes';

const quiet = async <T>(load: () => Promise<unknown>, key?: string): Promise<T[]> => {
  try {
    return asList<T>(await load(), key);
  } catch {
    return [];
  }
};

/**
 * Lists the ticket screens pick from. Kept a minute, but asked again when the window regains focus and at
 * once when the realtime events say they changed (`useCatalogueEvents`).
 */
const options = { staleTime: 60_000, retry: false, refetchOnWindowFocus: true } as const;

/** Which cached list each company event refreshes. */
export const CATALOGUE_EVENTS = [
  { event: events.queue, lists: ['queues', 'whatsapps', 'users'] },
  { event: events.tag, lists: ['tags'] },
  { event: events.quickMessage, lists: ['quick-messages'] },
  { event: events.user, lists: ['users'] },
  { event: events.whatsapp, lists: ['whatsapps'] },
] as const;

/** Mounted once by the ticket screens: queue, tag, quick-message, user and connection events refresh the lists. */
export const useCatalogueEvents = () => {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const companyId = user?.companyId;
  const refresh = useCallback(
    (lists: readonly string[]) => {
      for (const name of lists) {
        void queryClient.invalidateQueries({ queryKey: catalogueKey(name) });
      }
    },
    [queryClient],
  );
  const [queue, tag, quickMessage, userEvent, whatsapp] = CATALOGUE_EVENTS;
  const eventOf = (entry: (typeof CATALOGUE_EVENTS)[number]) => (companyId ? entry.event(companyId) : '');
  useSocketEvent(eventOf(queue), () => refresh(queue.lists));
  useSocketEvent(eventOf(tag), () => refresh(tag.lists));
  useSocketEvent(eventOf(quickMessage), () => refresh(quickMessage.lists));
  useSocketEvent(eventOf(userEvent), () => refresh(userEvent.lists));
  useSocketEvent(eventOf(whatsapp), () => refresh(whatsapp.lists));
};

/** Queues a select offers: admins every company queue, others their own (spec 1 §6). */
export const useQueueOptions = () => {
  const { user, isAdmin } = useAuth();
  const all = useQuery({
    ...options,
    queryKey: catalogueKey('queues'),
    queryFn: () => quiet<TQueueOption>(ticketsApi.queues, 'queues'),
    enabled: isAdmin,
  });
  if (!isAdmin) {
    return { data: user?.queues ?? [], isLoading: false };
  }

  return { data: all.data ?? [], isLoading: all.isLoading };
};

/** Every company queue (transfer targets). */
export const useAllQueues = () =>
  useQuery({
    ...options,
    queryKey: catalogueKey('queues'),
    queryFn: () => quiet<TQueueOption>(ticketsApi.queues, 'queues'),
  });

export const useUserOptions = (enabled = true) =>
  useQuery({
    ...options,
    enabled,
    queryKey: catalogueKey('users'),
    queryFn: () => quiet<TUserOption>(ticketsApi.users, 'users'),
  });

export const useWhatsappOptions = (enabled = true) =>
  useQuery({
    ...options,
    enabled,
    queryKey: catalogueKey('whatsapps'),
    queryFn: () => quiet<TWhatsappOption>(ticketsApi.whatsapps, 'whatsapps'),
  });

export const useTagOptions = () =>
  useQuery({ ...options, queryKey: catalogueKey('tags'), queryFn: () => quiet<TTagOption>(ticketsApi.tags, 'tags') });

export const useQuickMessages = () => {
  const { user } = useAuth();

  return useQuery({
    ...options,
    queryKey: catalogueKey('quick-messages'),
    queryFn: () => quiet<TQuickMessage>(() => ticketsApi.quickMessages(user?.id ?? 0), 'records'),
    enabled: Boolean(user),
  });
};
