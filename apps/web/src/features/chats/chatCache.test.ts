import type { TChat, TChatMessage, TChatUnreads } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import {
  appendMessage,
  conversationOf,
  formatChatTime,
  type TMessageData,
  totalUnreads,
  unreadsAfterEvent,
  unreadsOf,
  withChatUnreads,
} from './chatCache';

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

  describe("the unread total over all the caller's chats", () => {
    const ME = 1;
    /** chat `id` as an event carries it: my count `mine`, another member's `other` */
    const liveChat = (id: number, mine: number, other = 0): TChat => ({
      id,
      uuid: `uuid-${id}`,
      title: `Chat ${id}`,
      ownerId: ME,
      lastMessage: '',
      createdAt: '2025-01-02T10:00:00.000Z',
      updatedAt: '2025-01-02T10:00:00.000Z',
      owner: { id: ME, name: 'Me' },
      users: [
        { chatId: id, userId: ME, unreads: mine, user: { id: ME, name: 'Me' } },
        { chatId: id, userId: 2, unreads: other, user: { id: 2, name: 'Bea' } },
      ],
    });
    // the server's answer: 30 chats, two of them (40 and 41) far beyond the loaded first page
    const start: TChatUnreads = {
      unreads: 7,
      chats: [
        { chatId: 40, unreads: 4 },
        { chatId: 41, unreads: 3 },
      ],
    };
    const newMessage = (chat: TChat) =>
      ({ action: 'new-message', chat, newMessage: { ...message(99), chatId: chat.id, chat } }) as const;

    it('sets one chat count: the total moves by the difference, a chat with none is dropped', () => {
      expect(withChatUnreads(start, 40, 5)).toEqual({
        unreads: 8,
        chats: [
          { chatId: 41, unreads: 3 },
          { chatId: 40, unreads: 5 },
        ],
      });
      expect(withChatUnreads(start, 41, 0)).toEqual({ unreads: 4, chats: [{ chatId: 40, unreads: 4 }] });
      expect(withChatUnreads(start, 7, 1)).toMatchObject({ unreads: 8 });
      expect(withChatUnreads(start, 7, 0)).toBe(start);
    });

    it('follows the events: a message elsewhere counts, a read or a delete clears, the same event twice counts once', () => {
      // a message in a chat not loaded and without unreads yet
      const once = unreadsAfterEvent(start, newMessage(liveChat(7, 1)), ME);
      expect(once.unreads).toBe(8);
      // every mounted useChats hears it: no double count
      expect(unreadsAfterEvent(once, newMessage(liveChat(7, 1)), ME)).toEqual(once);
      // one more message in an old chat beyond the first page
      const more = unreadsAfterEvent(once, newMessage(liveChat(40, 5)), ME);
      expect(more.unreads).toBe(9);
      // my own message clears my count there (the other member's count is not mine)
      const sent = unreadsAfterEvent(more, newMessage(liveChat(41, 0, 6)), ME);
      expect(sent.unreads).toBe(6);
      // another member reading changes nothing of mine
      expect(unreadsAfterEvent(sent, { action: 'update', chat: liveChat(40, 5, 0) }, ME)).toBe(sent);
      // I read chat 40
      const read = unreadsAfterEvent(sent, { action: 'update', chat: liveChat(40, 0) }, ME);
      expect(read).toEqual({ unreads: 1, chats: [{ chatId: 7, unreads: 1 }] });
      // chat 7 deleted (or I was taken out of it)
      expect(unreadsAfterEvent(read, { action: 'delete', id: 7 }, ME)).toEqual({ unreads: 0, chats: [] });
      // a chat I was added to, arriving on my user room with its count
      expect(unreadsAfterEvent(read, { action: 'update', record: liveChat(50, 2) }, ME).unreads).toBe(3);
    });
  });
});
