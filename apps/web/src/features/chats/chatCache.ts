import type { InfiniteData } from '@tanstack/react-query';
import type { TChat, TChatEvent, TChatMessage, TChatUnreads, TChatUserEvent } from '@zelo/shared';

/** Pure helpers of the chat screens (unit-tested in chatCache.test.ts). */

export type TMessagePage = { records: TChatMessage[]; count: number; hasMore: boolean };
export type TMessageData = InfiniteData<TMessagePage, number>;

/** the caller's unread count in one chat */
export const unreadsOf = (chat: Pick<TChat, 'users'>, userId: number | undefined) =>
  chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

/** the caller's unread messages over these chats (the top bar's badge, the side menu's dot) */
export const totalUnreads = (chats: Pick<TChat, 'users'>[], userId: number | undefined) =>
  chats.reduce((sum, chat) => sum + unreadsOf(chat, userId), 0);

/**
 * The caller's unread total (GET /chats/unreads: over all its chats, not only the loaded ones) after one chat's
 * count for the caller became `count`; a chat absent from `state.chats` had none. Setting a count, not adding to
 * it, makes the same event heard twice (every mounted `useChats` hears it) change the total once.
 */
export const withChatUnreads = (state: TChatUnreads, chatId: number, count: number): TChatUnreads => {
  const before = state.chats.find((c) => c.chatId === chatId)?.unreads ?? 0;
  if (before === count) {
    return state;
  }
  const chats = state.chats.filter((c) => c.chatId !== chatId);

  return {
    unreads: Math.max(0, state.unreads - before + count),
    chats: count > 0 ? [...chats, { chatId, unreads: count }] : chats,
  };
};

/**
 * The total after a chat event the caller heard: each one carries the chat with the members' counts (a new
 * message, a read, a chat made or edited) or says the chat is gone for the caller (deleted or left: none).
 */
export const unreadsAfterEvent = (
  state: TChatUnreads,
  event: TChatEvent | TChatUserEvent,
  userId: number | undefined,
): TChatUnreads => {
  if ('record' in event) {
    return withChatUnreads(state, event.record.id, unreadsOf(event.record, userId));
  }
  if (event.action === 'delete') {
    return withChatUnreads(state, event.id, 0);
  }

  return withChatUnreads(state, event.chat.id, unreadsOf(event.chat, userId));
};

/**
 * The loaded pages as one conversation, oldest first: page 1 holds the newest messages and each further page
 * older ones (GET /chats/:id/messages), each page already oldest first.
 */
export const conversationOf = (data: TMessageData | undefined): TChatMessage[] =>
  data ? [...data.pages].reverse().flatMap((page) => page.records) : [];

/** a live message put at the end of the newest page, once (the sender's own answer and its event both bring it) */
export const appendMessage = (data: TMessageData | undefined, message: TChatMessage): TMessageData | undefined => {
  if (!data || data.pages.length === 0) {
    return data;
  }
  if (data.pages.some((page) => page.records.some((m) => m.id === message.id))) {
    return data;
  }
  const [newest, ...older] = data.pages;

  return {
    ...data,
    pages: [{ ...newest, records: [...newest.records, message], count: newest.count + 1 }, ...older],
  };
};

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yyyy HH:mm in local time; only HH:mm for today */
export const formatChatTime = (iso: string, now = new Date()) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) {
    return '';
  }
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const sameDay =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();

  return sameDay ? time : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${time}`;
};
