import type { TTicketListQuery } from '@zelo/shared';
import type { TListScope, TTicketPlace } from './list-answers';
import type { TViewer } from './ticket-access';

/**
 * Who sees which tickets in a list, written once (`visibilityCondition`) over its terms: as SQL text in the list's
 * and the board's statements (ticket-list.repo.ts `listConditions`), and as a test of a ticket's place
 * (`placeTerms`) for the scope of their kept answers (list-answers.ts): may a ticket at this place be in this
 * list? The scope reads the place only (status, queue, attendant); the other filters (tags, unread, days,
 * search) can only narrow a list, so a scope that ignores them admits every ticket the list may show.
 */

/** the terms a visibility rule is made of */
export type TVisibilityTerms<T> = {
  userIs: (userId: number) => T;
  /** a rule's test of the status (under a status filter the SQL terms fold it to true or false) */
  statusIs: (status: string) => T;
  queuesIn: (queueIds: number[]) => T;
  noQueue: () => T;
  anyOf: (...parts: (T | undefined)[]) => T;
  allOf: (...parts: (T | undefined)[]) => T;
};

/**
 * The tickets a user may list; `showAll` only counts for admins and users with allTicket enabled. With a
 * status filter, `pending` folds to true or false (the other arm of a rule can then drop out). Written once
 * over its conditions `c`: SQL text for the statement (listConditions), a test of a ticket's place for the
 * kept answers' scope (placeTerms below). `undefined`: no condition.
 */
export const visibilityCondition = <T>(
  viewer: TViewer,
  query: Pick<TTicketListQuery, 'showAll' | 'queueIds'>,
  c: TVisibilityTerms<T>,
): T | undefined => {
  const showAll = query.showAll === true && (viewer.isAdmin || viewer.allTicket);
  const requested = query.queueIds && query.queueIds.length > 0 ? [...new Set(query.queueIds)] : undefined;
  const mine = c.userIs(viewer.userId);
  const pending = c.statusIs('pending');
  if (viewer.isAdmin) {
    const queueCond = requested ? c.anyOf(c.queuesIn(requested), c.noQueue()) : undefined;
    if (showAll) return queueCond;

    return c.allOf(c.anyOf(mine, pending), queueCond);
  }
  const allowed = requested ? requested.filter((q) => viewer.queueIds.includes(q)) : viewer.queueIds;
  const queueCond = c.anyOf(c.queuesIn(allowed), viewer.seesNoQueue ? c.noQueue() : undefined);
  const ownCond = requested ? c.allOf(mine, c.anyOf(c.queuesIn(requested), c.noQueue())) : mine;
  if (showAll) return c.anyOf(ownCond, queueCond);

  return c.anyOf(ownCond, c.allOf(pending, queueCond));
};

type TPlaceTest = (place: TTicketPlace) => boolean;

const present = (parts: (TPlaceTest | undefined)[]) => parts.filter((p): p is TPlaceTest => p !== undefined);

/** the rule's terms as tests of a ticket's place; an absent part is left out, as the SQL terms leave it out */
export const placeTerms: TVisibilityTerms<TPlaceTest> = {
  userIs: (userId) => (p) => p.userId === userId,
  statusIs: (status) => (p) => p.status === status,
  queuesIn: (queueIds) => (p) => p.queueId !== null && queueIds.includes(p.queueId),
  noQueue: () => (p) => p.queueId === null,
  anyOf: (...parts) => {
    const tests = present(parts);
    return (p) => tests.some((test) => test(p));
  },
  allOf: (...parts) => {
    const tests = present(parts);
    return (p) => tests.every((test) => test(p));
  },
};

/** the scope of a ticket list's kept answer: its status, its viewer's rule and its attendants filter */
export const ticketListScope = (
  viewer: TViewer,
  query: Pick<TTicketListQuery, 'status' | 'showAll' | 'queueIds' | 'users'>,
): TListScope => {
  const rule = visibilityCondition(viewer, query, placeTerms);
  const users = query.users?.length ? new Set(query.users) : undefined;

  return (p) =>
    (query.status === undefined || p.status === query.status) &&
    (rule === undefined || rule(p)) &&
    (users === undefined || (p.userId !== null && users.has(p.userId)));
};

/** the scope of a kanban board's kept answer: open and pending tickets its viewer's rule admits */
export const boardScope = (viewer: TViewer, query: Pick<TTicketListQuery, 'showAll' | 'queueIds'>): TListScope => {
  const rule = visibilityCondition(viewer, query, placeTerms);

  return (p) => (p.status === 'open' || p.status === 'pending') && (rule === undefined || rule(p));
};
