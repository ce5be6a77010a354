import { describe, expect, it } from 'vitest';
import { flattenList, matchesSearch, removeFromList, type TListData, upsertInList } from './listCache';

type TTag = { id: number; name: string };
const data = (...pages: TTag[][]): TListData<TTag> => ({
  pages: pages.map((tags, i) => ({ tags, hasMore: i < pages.length - 1, count: 10 })),
  pageParams: pages.map((_, i) => i + 1),
});

describe('list cache (merge by id / put first / remove)', () => {
  it('merges a listed record in place, on whichever page it is', () => {
    const next = upsertInList(data([{ id: 1, name: 'a' }], [{ id: 2, name: 'b' }]), 'tags', { id: 2, name: 'B' });
    expect(flattenList(next, 'tags')).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'B' },
    ]);
    expect(next?.pages[0]?.count).toBe(10);
  });

  it('puts a new record first and counts it, only where it belongs', () => {
    const before = data([{ id: 1, name: 'a' }]);
    const added = upsertInList(before, 'tags', { id: 3, name: 'c' });
    expect(flattenList(added, 'tags').map((t) => t.id)).toEqual([3, 1]);
    expect(added?.pages[0]?.count).toBe(11);
    expect(upsertInList(before, 'tags', { id: 3, name: 'c' }, () => false)).toBe(before);
  });

  it('removes a record and lowers the count; an unknown id leaves the data as it was', () => {
    const before = data([{ id: 1, name: 'a' }], [{ id: 2, name: 'b' }]);
    const removed = removeFromList(before, 'tags', 2);
    expect(flattenList(removed, 'tags').map((t) => t.id)).toEqual([1]);
    expect(removed?.pages[1]?.count).toBe(9);
    expect(removeFromList(before, 'tags', 99)).toBe(before);
  });

  it('leaves a list not loaded alone', () => {
    expect(upsertInList<TTag>(undefined, 'tags', { id: 1, name: 'a' })).toBeUndefined();
  });

  it('matches a search ignoring case and accents', () => {
    expect(matchesSearch('joao', 'João Silva')).toBe(true);
    expect(matchesSearch(' SIL ', null, 'João Silva')).toBe(true);
    expect(matchesSearch('maria', 'João')).toBe(false);
    expect(matchesSearch('', 'x')).toBe(true);
  });
});
