import { ApiError } from '../../api/http';
import type { TUserOption } from './ticketTypes';

/** User search starts at 3 characters, debounced 500 ms (spec 1 §5). */
export const USER_SEARCH_MIN = 3;

export const matchUsers = (users: TUserOption[], term: string, queueId: number | null): TUserOption[] => {
  const search = term.trim().toLowerCase();
  if (search.length < USER_SEARCH_MIN) {
    return [];
  }

  return users.filter(
    (u) =>
      u.name.toLowerCase().includes(search) &&
      (queueId === null || !u.queues || u.queues.length === 0 || u.queues.some((q) => q.id === queueId)),
  );
};

/** Contact search starts at 3 characters (spec 1 §5). */
export const CONTACT_SEARCH_MIN = 3;

export type THeld = {
  userId: number | null;
  uuid?: string;
  user?: { name: string } | null;
  queue?: { name: string } | null;
};

/** The ticket another user holds, when the server's ERR_OTHER_OPEN_TICKET answer carries it. */
export const heldTicketOf = (err: unknown): THeld | null => {
  if (!(err instanceof ApiError)) {
    return null;
  }
  const fromBody = err.body?.ticket;
  if (fromBody && typeof fromBody === 'object') {
    return fromBody as THeld;
  }
  try {
    const parsed = JSON.parse(err.message) as unknown;

    return parsed && typeof parsed === 'object' && 'userId' in parsed ? (parsed as THeld) : null;
  } catch {
    return null;
  }
};
