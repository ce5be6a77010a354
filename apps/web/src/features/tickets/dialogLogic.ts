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

export type THeld = { id: number | null; uuid?: string; userId?: number | null; userName: string; queueName: string };

/**
 * The ticket that holds the contact, from an ERR_OTHER_OPEN_TICKET answer: its `details`
 * (`ticketId`, `user`, `queue`), or a `ticket` object, or a JSON message (as the ancestor's server sent).
 */
export const heldTicketOf = (err: unknown): THeld | null => {
  if (!(err instanceof ApiError) || err.code !== 'ERR_OTHER_OPEN_TICKET') {
    return null;
  }
  const detail = (path: string) => err.details?.find((d) => d.path === path)?.message ?? '';
  if (err.details?.length) {
    const id = Number(detail('ticketId'));

    return { id: Number.isFinite(id) && id > 0 ? id : null, userName: detail('user'), queueName: detail('queue') };
  }
  let ticket: unknown = err.body?.ticket;
  if (!ticket) {
    try {
      ticket = JSON.parse(err.message) as unknown;
    } catch {
      ticket = null;
    }
  }
  if (!ticket || typeof ticket !== 'object') {
    return { id: null, userName: '', queueName: '' };
  }
  const t = ticket as {
    id?: number;
    uuid?: string;
    userId?: number | null;
    user?: { name?: string } | null;
    queue?: { name?: string } | null;
  };

  return {
    id: t.id ?? null,
    uuid: t.uuid,
    userId: t.userId,
    userName: t.user?.name ?? '',
    queueName: t.queue?.name ?? '',
  };
};
