import { PREVIEW_LABELS, type TMessage, type TPreviewLabel } from '@zelo/shared';
import { stripWhatsAppFormat } from '../../components/whatsappFormat';

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yyyy of an ISO date-time, in local time (day headers, spec 1 §9). */
export const formatDay = (iso: string): string => {
  const d = new Date(iso);

  return Number.isNaN(d.getTime()) ? '' : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
};

/** HH:mm of an ISO date-time. */
export const formatTime = (iso: string): string => {
  const d = new Date(iso);

  return Number.isNaN(d.getTime()) ? '' : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** dd/MM/yyyy HH:mm:ss (messages, spec 1 §9). */
export const formatDateTime = (iso: string): string => {
  const d = new Date(iso);

  return Number.isNaN(d.getTime()) ? '' : `${formatDay(iso)} ${formatTime(iso)}:${pad(d.getSeconds())}`;
};

/** DD/MM/YYYY HH:mm (notes). */
export const formatNoteDate = (iso: string): string => `${formatDay(iso)} ${formatTime(iso)}`.trim();

/** Row time: HH:mm when updated today, otherwise dd/MM/yyyy. */
export const formatTicketTime = (iso: string, now = new Date()): string => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) {
    return '';
  }
  const sameDay =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();

  return sameDay ? formatTime(iso) : formatDay(iso);
};

/** On narrow screens names over 10 characters are shortened. */
export const shortenName = (name: string, narrow: boolean, max = 10): string =>
  narrow && name.length > max ? `${name.slice(0, max)}…` : name;

export type TConversationItem =
  | { kind: 'day'; key: string; day: string }
  | { kind: 'ticketEnd'; key: string; at: string }
  | { kind: 'ticketStart'; key: string; at: string }
  | { kind: 'message'; key: string; message: TMessage };

/**
 * The conversation as rendered: a dd/MM/yyyy header whenever the day changes and, when two consecutive
 * messages belong to different tickets, 'Conversa encerrada' (end of the older one, at its last message)
 * followed by 'Conversa iniciada' (start of the newer one, at its first message). Messages are oldest first.
 */
export const buildConversation = (messages: TMessage[]): TConversationItem[] => {
  const items: TConversationItem[] = [];
  let previous: TMessage | null = null;
  let previousDay = '';
  for (const message of messages) {
    if (previous && previous.ticketId !== message.ticketId) {
      items.push({ kind: 'ticketEnd', key: `end-${previous.id}`, at: previous.createdAt });
      items.push({ kind: 'ticketStart', key: `start-${message.id}`, at: message.createdAt });
    }
    const day = formatDay(message.createdAt);
    if (!previous || previousDay !== day) {
      items.push({ kind: 'day', key: `day-${message.id}`, day });
    }
    items.push({ kind: 'message', key: `msg-${message.id}`, message });
    previous = message;
    previousDay = day;
  }

  return items;
};

/** characters of text on one line of a bubble, about, at the width a bubble gets on a laptop */
const CHARS_PER_LINE = 48;

/**
 * A row's height before the virtualized conversation measures it: close enough that the scroll bar does not jump
 * much (the measured height replaces it as soon as the row is drawn). Day chips and markers have one size;
 * a bubble grows with its lines of text, a quote and a picture or file.
 */
export const estimateItemSize = (item: TConversationItem | undefined): number => {
  if (!item) {
    return 64;
  }
  if (item.kind === 'day') {
    return 40;
  }
  if (item.kind !== 'message') {
    return 46;
  }
  const { message } = item;
  if (message.isDeleted) {
    return 52;
  }
  const text = message.mediaType && message.mediaType !== 'chat' ? '' : message.body;
  const lines = text.split('\n').reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / CHARS_PER_LINE)), 0);
  const media = message.mediaUrl ? (message.mediaType === 'image' || message.mediaType === 'video' ? 220 : 64) : 0;
  const quote = message.quotedMsg ? 56 : 0;

  return 36 + lines * 20 + media + quote;
};

export type TTicks = 'error' | 'clock' | 'single' | 'double' | 'doubleGrey' | 'read';

/**
 * Delivery ticks of an own message (spec 1 §4): 1 one tick, 2 two grey ticks, 3 double tick, 4–5 double tick
 * in colour. 0 is a failed send when the server recorded an error, else still on its way.
 */
export const ticksOfAck = (ack: number, errorCode?: string | null): TTicks => {
  if (ack <= 0) {
    return errorCode ? 'error' : 'clock';
  }
  if (ack === 1) {
    return 'single';
  }
  if (ack === 2) {
    return 'doubleGrey';
  }
  if (ack === 3) {
    return 'double';
  }

  return 'read';
};

/** A signed body starts with the user name in bold then a line break (spec 1 §9). */
export const signBody = (body: string, userName: string, sign: boolean): string =>
  sign && userName.trim() ? `*${userName.trim()}:*\n${body}` : body;

export type TLocation = { imageUrl: string; link: string; description: string };

/** A location body is 'image|link' or 'image|link|description' (spec 1 §2). */
export const parseLocationBody = (body: string): TLocation | null => {
  const parts = body.split('|');
  if (parts.length < 2) {
    return null;
  }
  const [imageUrl, link, ...rest] = parts;

  return { imageUrl: imageUrl.trim(), link: link.trim(), description: rest.join('|').trim() };
};

const PREVIEW_LABEL_OF = new Map(
  Object.entries(PREVIEW_LABELS).map(([key, stored]) => [stored as string, key as TPreviewLabel]),
);

/** a file's kind from a bare file name's extension (a last message stored as "2651e7….png" before the fix) */
const KIND_OF_EXTENSION: [RegExp, TPreviewLabel][] = [
  [/\.(png|jpe?g|gif|webp|bmp|heic)$/i, 'image'],
  [/\.(ogg|oga|opus|mp3|m4a|wav|aac|amr)$/i, 'audio'],
  [/\.(mp4|mov|3gp|mkv|avi|webm)$/i, 'video'],
  [/\.(pdf|docx?|xlsx?|pptx?|odt|ods|csv|txt|zip|rar|7z|xml|json)$/i, 'application'],
];
export const fileNameKind = (text: string): TPreviewLabel | null => {
  if (!/^[^\s/\\]+\.[a-z0-9]{2,5}$/i.test(text)) return null;

  return KIND_OF_EXTENSION.find(([pattern]) => pattern.test(text))?.[1] ?? null;
};

/**
 * The list preview of a message body: locations read 'Localização' (spec 1 §2) and the fixed labels the server
 * stores for messages without text ('Imagem', 'Contato'…) are shown in the agent's language (`label`);
 * WhatsApp's markers go.
 */
export const lastMessagePreview = (lastMessage: string, label: (key: TPreviewLabel) => string): string => {
  const text = lastMessage ?? '';
  if (/^BEGIN:VCARD/i.test(text)) {
    return `👤 ${parseVcard(text).name}`.trim();
  }
  if (/^data:image\/[a-z]+;base64,/i.test(text) || (text.includes('|') && /https?:\/\/maps\./i.test(text))) {
    return label('location');
  }
  const fixed = PREVIEW_LABEL_OF.get(text) ?? fileNameKind(text);
  if (fixed) {
    return label(fixed);
  }

  return stripWhatsAppFormat(text);
};

export type TVcard = { name: string; numbers: string[] };

/** The name and phone numbers of a vcard body. */
export const parseVcard = (body: string): TVcard => {
  const lines = body.split(/\r?\n/);
  let name = '';
  const numbers: string[] = [];
  for (const line of lines) {
    if (/^FN[:;]/i.test(line)) {
      name = line.slice(line.indexOf(':') + 1).trim();
    } else if (!name && /^N[:;]/i.test(line)) {
      name = line
        .slice(line.indexOf(':') + 1)
        .split(';')
        .filter(Boolean)
        .reverse()
        .join(' ')
        .trim();
    } else if (/^(item\d+\.)?TEL/i.test(line)) {
      const waid = /waid=(\d+)/i.exec(line);
      const value = line.slice(line.lastIndexOf(':') + 1).trim();
      numbers.push(waid ? waid[1] : value);
    }
  }

  return { name, numbers };
};

/**
 * Only its author may delete or edit a message (spec 1 §6; the server checks it too): not another attendant's,
 * not the bot's, not the customer's, and not one still being sent. Only stored text messages can be edited.
 */
export const isOwnMessage = (message: TMessage, viewerId: number) =>
  message.fromMe && message.id > 0 && viewerId > 0 && message.userId === viewerId;

export const canEditMessage = (message: TMessage, viewerId: number) =>
  isOwnMessage(message, viewerId) &&
  !message.isDeleted &&
  !message.isPrivate &&
  (!message.mediaType || message.mediaType === 'chat') &&
  !message.mediaUrl;

export const canDeleteMessage = (message: TMessage, viewerId: number) =>
  isOwnMessage(message, viewerId) && !message.isDeleted;

/** An own message that failed to go out: ack 0 with the reason the server (or the send) gave. */
export const isFailedMessage = (message: TMessage) => message.fromMe && message.ack <= 0 && Boolean(message.errorCode);

/** Merges messages into a page list, oldest first, by id (live events and the send answer may both deliver one). */
export const mergeMessages = (list: TMessage[], incoming: TMessage): TMessage[] => {
  const index = list.findIndex((m) => m.id === incoming.id);
  if (index >= 0) {
    const next = list.slice();
    next[index] = incoming;

    return next;
  }

  return [...list, incoming];
};
