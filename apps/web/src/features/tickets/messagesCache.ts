import type { TMessage } from '@zelo/shared';
import type { TMessagesData } from './ticketTypes';

/** Messages of all loaded pages, oldest first (page 1 holds the newest 20, each page newest last). */
export const flattenMessages = (data: TMessagesData | undefined): TMessage[] => {
  if (!data) {
    return [];
  }
  const seen = new Set<number>();
  const out: TMessage[] = [];
  for (const page of [...data.pages].reverse()) {
    for (const message of page.messages) {
      if (!seen.has(message.id)) {
        seen.add(message.id);
        out.push(message);
      }
    }
  }

  return out;
};

/** A created message goes at the end of the newest page; a known one is replaced where it is. */
export const upsertMessage = (data: TMessagesData | undefined, message: TMessage): TMessagesData | undefined => {
  if (!data || data.pages.length === 0) {
    return data;
  }
  const listed = data.pages.some((page) => page.messages.some((m) => m.id === message.id));
  if (listed) {
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        messages: page.messages.map((m) => (m.id === message.id ? { ...m, ...message } : m)),
      })),
    };
  }

  return {
    ...data,
    pages: data.pages.map((page, index) => (index === 0 ? { ...page, messages: [...page.messages, message] } : page)),
  };
};

/** An update for a message not loaded is ignored (it belongs to an older page or another ticket). */
export const updateMessage = (data: TMessagesData | undefined, message: TMessage): TMessagesData | undefined => {
  if (!data || !data.pages.some((page) => page.messages.some((m) => m.id === message.id))) {
    return data;
  }

  return upsertMessage(data, message);
};
