import { useQuery } from '@tanstack/react-query';
import type { TQuickMessage } from '@zelo/shared';
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

const options = { staleTime: 60_000, retry: false } as const;

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
