import type { TAnnouncement } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import {
  announcementImageUrl,
  isUnread,
  managementChange,
  markSeen,
  popoverChange,
  priorityBorder,
  priorityColor,
  readSeen,
  SEEN_LIMIT,
  seenStorageKey,
  unreadCount,
  writeSeen,
} from './announcementLogic';

const make = (id: number, fields: Partial<TAnnouncement> = {}): TAnnouncement => ({
  id,
  title: `Notice ${id}`,
  text: 'Text',
  priority: 3,
  status: true,
  mediaPath: null,
  mediaName: null,
  createdAt: '2025-01-01T10:00:00.000Z',
  updatedAt: '2025-01-01T10:00:00.000Z',
  ...fields,
});

const memoryStorage = () => {
  const store = new Map<string, string>();

  return {
    store,
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => void store.set(key, value),
  };
};

describe('announcement logic', () => {
  it('should colour priorities red, orange and grey', () => {
    expect([1, 2, 3].map(priorityColor)).toEqual(['error', 'warning', 'default']);
    expect([1, 2, 3].map(priorityBorder)).toEqual(['error.main', 'warning.main', 'grey.500']);
  });

  it('should address the image under /public', () => {
    expect(announcementImageUrl({ mediaPath: 'ab12.png' })).toBe('/public/ab12.png');
    expect(announcementImageUrl({ mediaPath: null })).toBeNull();
  });

  it('should keep inactive ones in the management list but take them out of the popover', () => {
    const inactive = make(1, { status: false });
    expect(managementChange({ action: 'update', record: inactive })).toEqual({ upsert: inactive });
    expect(popoverChange({ action: 'update', record: inactive })).toEqual({ remove: 1 });
    expect(popoverChange({ action: 'create', record: make(2) })).toEqual({ upsert: make(2) });
    expect(popoverChange({ action: 'delete', id: 3 })).toEqual({ remove: 3 });
    expect(managementChange({ action: 'delete', id: 3 })).toEqual({ remove: 3 });
  });

  it('should count unseen announcements, and an edited one as unseen again', () => {
    const list = [make(1), make(2)];
    expect(unreadCount({}, list)).toBe(2);
    const seen = markSeen({}, list);
    expect(unreadCount(seen, list)).toBe(0);
    expect(markSeen(seen, list)).toBe(seen);
    const edited = make(2, { updatedAt: '2025-01-02T08:00:00.000Z' });
    expect(isUnread(seen, edited)).toBe(true);
    expect(unreadCount(seen, [make(1), edited, make(3)])).toBe(2);
  });

  it('should keep the seen map per user in storage, bounded, and read junk as nothing seen', () => {
    const storage = memoryStorage();
    const seen = markSeen({}, [make(5)]);
    writeSeen(storage, 7, seen);
    expect(readSeen(storage, 7)).toEqual(seen);
    expect(readSeen(storage, 8)).toEqual({});
    storage.store.set(seenStorageKey(8), '[1,2]');
    expect(readSeen(storage, 8)).toEqual({});
    storage.store.set(seenStorageKey(8), '{broken');
    expect(readSeen(storage, 8)).toEqual({});
    storage.store.set(seenStorageKey(8), JSON.stringify({ 1: 'x', 2: 5 }));
    expect(readSeen(storage, 8)).toEqual({ 1: 'x' });

    const many = Array.from({ length: SEEN_LIMIT + 20 }, (_, i) => make(i + 1));
    const bounded = markSeen({}, many);
    expect(Object.keys(bounded)).toHaveLength(SEEN_LIMIT);
    // the newest (highest ids) are kept
    expect(isUnread(bounded, many[many.length - 1])).toBe(false);
    expect(isUnread(bounded, many[0])).toBe(true);
  });
});
