import type { TChatMessage } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { appendMessage, conversationOf, formatChatTime, type TMessageData, totalUnreads, unreadsOf } from './chatCache';

const message = (id: number, text = `m${id}`): TChatMessage => ({
  id,
  chatId: 1,
  senderId: 7,
  message: text,
  mediaPath: null,
  mediaName: null,
  createdAt: '2025-01-02T10:00:00.000Z',
  updatedAt: '2025-01-02T10:00:00.000Z',
  sender: { id: 7, name: 'Ann' },
});

const data = (...pages: number[][]): TMessageData => ({
  pages: pages.map((ids, i) => ({ records: ids.map((id) => message(id)), count: 25, hasMore: i < pages.length - 1 })),
  pageParams: pages.map((_p, i) => i + 1),
});

describe('chat cache', () => {
  it('reads the pages as one conversation, oldest first (page 1 is the newest)', () => {
    expect(conversationOf(data([21, 22, 23], [11, 12, 13], [1, 2])).map((m) => m.id)).toEqual([
      1, 2, 11, 12, 13, 21, 22, 23,
    ]);
    expect(conversationOf(undefined)).toEqual([]);
  });

  it('appends a live message to the newest page once', () => {
    const before = data([21, 22], [11, 12]);
    const after = appendMessage(before, message(23));
    expect(conversationOf(after).map((m) => m.id)).toEqual([11, 12, 21, 22, 23]);
    expect(after?.pages[0].count).toBe(26);
    // the sender's answer and its event bring the same message
    expect(appendMessage(after, message(23))).toBe(after);
    expect(appendMessage(undefined, message(1))).toBeUndefined();
  });

  it("counts the caller's unread messages only", () => {
    const chat = (mine: number, theirs: number) => ({
      users: [
        { chatId: 1, userId: 1, unreads: mine, user: { id: 1, name: 'Me' } },
        { chatId: 1, userId: 2, unreads: theirs, user: { id: 2, name: 'Other' } },
      ],
    });
    expect(unreadsOf(chat(3, 9), 1)).toBe(3);
    expect(unreadsOf(chat(3, 9), 5)).toBe(0);
    expect(totalUnreads([chat(3, 9), chat(0, 4), chat(2, 0)], 1)).toBe(5);
  });

  it('shows the time alone for today, the date and time otherwise', () => {
    const now = new Date(2025, 0, 2, 18, 0);
    expect(formatChatTime(new Date(2025, 0, 2, 9, 5).toISOString(), now)).toBe('09:05');
    expect(formatChatTime(new Date(2024, 11, 31, 23, 59).toISOString(), now)).toBe('31/12/2024 23:59');
    expect(formatChatTime('nope', now)).toBe('');
  });
});
