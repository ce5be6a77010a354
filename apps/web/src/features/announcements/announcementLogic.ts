import type { TAnnouncement, TAnnouncementEvent } from '@zelo/shared';
import type { TListChange } from '../../components/kit';

/**
 * What the announcements screen and the top bar's popover decide without React: the priority's colour, the
 * image's address, how a `company-announcement` event changes a list, and which announcements a user has not
 * seen yet.
 *
 * Unread state is kept in the browser, per user (`announcements-seen:<userId>`): a map of announcement id to
 * the `updatedAt` the user saw. An active announcement is unread until the popover has been opened while it
 * was listed with that `updatedAt`; so an edited announcement is unread again. The server keeps no read state.
 */

/** spec 1 §9: 1 red, 2 orange, 3 grey (MUI palette colours, which follow light and dark) */
export const PRIORITY_COLOR = { 1: 'error', 2: 'warning', 3: 'default' } as const;
export const priorityColor = (priority: number) => PRIORITY_COLOR[priority as 1 | 2 | 3] ?? 'default';
/** the left border of a popover item: the palette path of its colour */
export const priorityBorder = (priority: number) =>
  priority === 1 ? 'error.main' : priority === 2 ? 'warning.main' : 'grey.500';
export const priorityKey = (priority: number) => (priority === 1 ? 'high' : priority === 2 ? 'medium' : 'low');

/** the stored image, served by the API host under /public */
export const announcementImageUrl = (announcement: Pick<TAnnouncement, 'mediaPath'>) =>
  announcement.mediaPath ? `/public/${encodeURIComponent(announcement.mediaPath)}` : null;

/** the management list (super user): every announcement, active or not */
export const managementChange = (event: TAnnouncementEvent): TListChange<TAnnouncement> =>
  event.action === 'delete' ? { remove: event.id } : { upsert: event.record };

/** the popover: active announcements only (a super user's socket also hears inactive ones) */
export const popoverChange = (event: TAnnouncementEvent): TListChange<TAnnouncement> => {
  if (event.action === 'delete') {
    return { remove: event.id };
  }

  return event.record.status ? { upsert: event.record } : { remove: event.record.id };
};

export type TSeen = Record<string, string>;
/** seen entries kept at most (past it, the lowest ids, the oldest announcements, are forgotten) */
export const SEEN_LIMIT = 300;

export const seenStorageKey = (userId: number) => `announcements-seen:${userId}`;

export const readSeen = (storage: Pick<Storage, 'getItem'>, userId: number): TSeen => {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(seenStorageKey(userId)) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return {};
    }

    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'string')) as TSeen;
  } catch {
    return {};
  }
};

export const writeSeen = (storage: Pick<Storage, 'setItem'>, userId: number, seen: TSeen) => {
  try {
    storage.setItem(seenStorageKey(userId), JSON.stringify(seen));
  } catch {
    // a full or blocked storage: the badge shows them again next time
  }
};

export const isUnread = (seen: TSeen, announcement: Pick<TAnnouncement, 'id' | 'updatedAt'>) =>
  seen[String(announcement.id)] !== announcement.updatedAt;

export const unreadCount = (seen: TSeen, announcements: Pick<TAnnouncement, 'id' | 'updatedAt'>[]) =>
  announcements.filter((a) => isUnread(seen, a)).length;

/** the seen map with these announcements marked at their current `updatedAt` (the same map when nothing changes) */
export const markSeen = (seen: TSeen, announcements: Pick<TAnnouncement, 'id' | 'updatedAt'>[]): TSeen => {
  if (announcements.every((a) => !isUnread(seen, a))) {
    return seen;
  }
  const next: TSeen = { ...seen };
  for (const a of announcements) {
    next[String(a.id)] = a.updatedAt;
  }
  // integer-like keys enumerate in ascending order
  const keys = Object.keys(next);
  if (keys.length <= SEEN_LIMIT) {
    return next;
  }

  return Object.fromEntries(keys.slice(keys.length - SEEN_LIMIT).map((k) => [k, next[k]]));
};
