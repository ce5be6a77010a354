import { useEffect, useMemo, useState } from 'react';
import type { TQueueOption } from './ticketTypes';

const storageKey = (userId: number) => `tickets.selectedQueueIds.${userId}`;

const readStored = (userId: number): number[] | null => {
  try {
    const raw = localStorage.getItem(storageKey(userId));
    const parsed = raw ? (JSON.parse(raw) as unknown) : null;

    return Array.isArray(parsed) ? parsed.filter((v): v is number => typeof v === 'number') : null;
  } catch {
    return null;
  }
};

/**
 * The queue multi-select of the ticket manager, kept in local storage per user. Until the user chooses,
 * every queue they can see is selected; stored ids of queues that no longer exist are ignored.
 */
export const useQueueSelection = (userId: number, available: TQueueOption[]) => {
  const [stored, setStored] = useState<number[] | null>(() => readStored(userId));
  useEffect(() => setStored(readStored(userId)), [userId]);

  const availableIds = useMemo(() => available.map((q) => q.id), [available]);
  const selected = useMemo(
    () => (stored === null ? availableIds : stored.filter((id) => availableIds.includes(id))),
    [stored, availableIds],
  );

  const setSelected = (ids: number[]) => {
    localStorage.setItem(storageKey(userId), JSON.stringify(ids));
    setStored(ids);
  };

  return { selected, setSelected };
};
