import {
  events,
  PAGE_SIZE,
  rooms,
  type TChat,
  type TChatBody,
  type TChatEvent,
  type TChatMessage,
  type TChatMessageBody,
  type TChatNewMessage,
  type TChatReadBody,
  type TChatRoomEvent,
  type TChatsQuery,
  type TChatUpdateBody,
  type TChatUserEvent,
} from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import {
  clearUnread,
  companyUserIds,
  countUnread,
  deleteChatRow,
  findChatMessage,
  findMemberChat,
  insertChat,
  insertChatMessage,
  memberIdsOf,
  membersOf,
  pageChatMessages,
  pageMemberChats,
  replaceMembers,
  setChatTitle,
  type TChatRow,
  touchChat,
  unreadChatsOf,
  userNames,
} from './chats.repo';

/**
 * Internal chat (spec 2 §2–§7). Only members list, read, write or hear a chat: every lookup goes through the
 * caller's membership (a non-member gets the missing chat's 404), and every event goes to the members' user
 * rooms, never to the company's (the ancestor broadcast every message to the whole company: reference §8).
 * Event names and payloads are the ancestor's: `company-{id}-chat-user-{userId}` `{action: create|update,
 * record}` when a chat is made or changed, `company-{id}-chat` `{action: new-message, newMessage, chat}`,
 * `{action: update, chat}` and `{action: delete, id}`, and `company-{id}-chat-{chatId}` with the first two.
 */

type TChatRef = number | string;

const notFound = () => new AppError('ERR_NO_CHAT_FOUND', 'Chat not found');

const toChats = async (db: TDbOrTx, companyId: number, rows: TChatRow[]): Promise<TChat[]> => {
  const members = await membersOf(
    db,
    companyId,
    rows.map((r) => r.id),
  );
  const ownerIds = [...new Set(rows.map((r) => r.ownerId).filter((id): id is number => id !== null))];
  const owners = await userNames(db, companyId, ownerIds);

  return rows.map((row) => ({
    id: row.id,
    uuid: row.uuid,
    title: row.title,
    ownerId: row.ownerId,
    lastMessage: row.lastMessage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    owner:
      row.ownerId !== null && owners.has(row.ownerId) ? { id: row.ownerId, name: owners.get(row.ownerId) ?? '' } : null,
    users: members
      .filter((m) => m.chatId === row.id)
      .map((m) => ({ chatId: m.chatId, userId: m.userId, unreads: m.unreads, user: { id: m.userId, name: m.name } })),
  }));
};

const loadChat = async (db: TDbOrTx, auth: TAuth, ref: TChatRef, lock = false) => {
  const row = await findMemberChat(db, auth.companyId, auth.userId, ref, lock);
  if (!row) throw notFound();

  return row;
};

const chatAnswer = async (db: TDbOrTx, auth: TAuth, ref: TChatRef) =>
  (await toChats(db, auth.companyId, [await loadChat(db, auth, ref)]))[0];

/** the owner alone edits or deletes (spec 2 §6); other members are told so, non-members never got here */
const assertOwner = (auth: TAuth, chat: TChatRow) => {
  if (chat.ownerId !== auth.userId) throw new AppError('ERR_NO_PERMISSION', 'Only the owner changes this chat');
};

/** the members a body names: the owner always, plus users of the company, at least one besides the owner */
const membersFromBody = async (db: TDbOrTx, companyId: number, ownerId: number, users: { id: number }[]) => {
  const others = [...new Set(users.map((u) => u.id))].filter((id) => id !== ownerId);
  if (others.length === 0) throw new AppError('ERR_CHAT_NO_MEMBERS', 'A chat needs another member');
  const found = await companyUserIds(db, companyId, others);
  if (found.length !== others.length) throw new AppError('ERR_NO_USER_FOUND', 'No such user');

  return [ownerId, ...others];
};

// ── events: to the members' user rooms only ──

const toMembers = (ctx: TAppContext, companyId: number, memberIds: number[], event: string, payload: unknown) => {
  if (memberIds.length === 0) return;
  ctx.realtime.to(
    memberIds.map((id) => rooms.user(companyId, id)),
    event,
    payload,
  );
};

const memberIdsOfChat = (chat: TChat) => chat.users.map((u) => u.userId);

const announceToEach = (ctx: TAppContext, companyId: number, chat: TChat, action: TChatUserEvent['action']) => {
  for (const userId of memberIdsOfChat(chat)) {
    ctx.realtime.toUser(companyId, userId, events.chatUser(companyId, userId), {
      action,
      record: chat,
    } satisfies TChatUserEvent);
  }
};

const announceChange = (ctx: TAppContext, companyId: number, chat: TChat, newMessage?: TChatNewMessage) => {
  const payload: TChatEvent & TChatRoomEvent = newMessage
    ? { action: 'new-message', newMessage, chat }
    : { action: 'update', chat };
  const members = memberIdsOfChat(chat);
  toMembers(ctx, companyId, members, events.chatRoom(companyId, chat.id), payload);
  toMembers(ctx, companyId, members, events.chat(companyId), payload);
};

const announceDelete = (ctx: TAppContext, companyId: number, memberIds: number[], chatId: number) =>
  toMembers(ctx, companyId, memberIds, events.chat(companyId), { action: 'delete', id: chatId } satisfies TChatEvent);

// ── the routes' work ──

export const listChats = async (ctx: TAppContext, auth: TAuth, query: TChatsQuery) => {
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pageMemberChats(ctx.db, auth.companyId, auth.userId, query.searchParam, limit, offset);
  const page = pageAnswer(await toChats(ctx.db, auth.companyId, rows), total, query.pageNumber);

  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

/** the caller's unread total over all its chats (not only a loaded page of them), and each chat's count */
export const chatUnreads = async (ctx: TAppContext, auth: TAuth) => {
  const chats = await unreadChatsOf(ctx.db, auth.companyId, auth.userId);

  return { unreads: chats.reduce((sum, chat) => sum + chat.unreads, 0), chats };
};

export const getChat = (ctx: TAppContext, auth: TAuth, ref: TChatRef) => chatAnswer(ctx.db, auth, ref);

export const createChat = async (ctx: TAppContext, auth: TAuth, body: TChatBody) => {
  const companyId = auth.companyId;
  const chatId = await ctx.db.transaction(async (tx) => {
    const memberIds = await membersFromBody(tx, companyId, auth.userId, body.users);

    return (await insertChat(tx, { companyId, ownerId: auth.userId, title: body.title, memberIds })).id;
  });
  const chat = await chatAnswer(ctx.db, auth, chatId);
  announceToEach(ctx, companyId, chat, 'create');

  return chat;
};

export const updateChat = async (ctx: TAppContext, auth: TAuth, ref: TChatRef, body: TChatUpdateBody) => {
  const companyId = auth.companyId;
  const { chatId, gone } = await ctx.db.transaction(async (tx) => {
    const row = await loadChat(tx, auth, ref, true);
    assertOwner(auth, row);
    if (body.title !== undefined) await setChatTitle(tx, companyId, row.id, body.title);
    let removed: number[] = [];
    if (body.users !== undefined) {
      const memberIds = await membersFromBody(tx, companyId, auth.userId, body.users);
      removed = (await replaceMembers(tx, companyId, row.id, memberIds)).gone;
    }
    if (body.title !== undefined || body.users !== undefined) await touchChat(tx, companyId, row.id);

    return { chatId: row.id, gone: removed };
  });
  const chat = await chatAnswer(ctx.db, auth, chatId);
  announceToEach(ctx, companyId, chat, 'update');
  announceChange(ctx, companyId, chat);
  // whoever left the chat drops it from its lists (and hears nothing of it from now on)
  announceDelete(ctx, companyId, gone, chatId);

  return chat;
};

export const deleteChat = async (ctx: TAppContext, auth: TAuth, ref: TChatRef) => {
  const companyId = auth.companyId;
  const { chatId, memberIds } = await ctx.db.transaction(async (tx) => {
    const row = await loadChat(tx, auth, ref, true);
    assertOwner(auth, row);
    const members = await memberIdsOf(tx, companyId, row.id);
    if (!(await deleteChatRow(tx, companyId, row.id))) throw notFound();

    return { chatId: row.id, memberIds: members };
  });
  announceDelete(ctx, companyId, memberIds, chatId);
};

type TMessageRow = NonNullable<Awaited<ReturnType<typeof findChatMessage>>>;

const toMessage = (row: TMessageRow): TChatMessage => ({
  id: row.message.id,
  chatId: row.message.chatId,
  senderId: row.message.senderId,
  message: row.message.message,
  mediaPath: row.message.mediaPath,
  mediaName: row.message.mediaName,
  createdAt: row.message.createdAt.toISOString(),
  updatedAt: row.message.updatedAt.toISOString(),
  sender:
    row.message.senderId !== null && row.senderName !== null
      ? { id: row.message.senderId, name: row.senderName }
      : null,
});

/**
 * GET /chats/:id/messages: page 1 holds the newest messages and each next page older ones (the ancestor
 * puts every page it loads above the ones it has); within a page the oldest comes first.
 */
export const listChatMessages = async (ctx: TAppContext, auth: TAuth, ref: TChatRef, pageNumber: number) => {
  const chat = await loadChat(ctx.db, auth, ref);
  const size = PAGE_SIZE.messages;
  const { limit, offset } = pageWindow(pageNumber, size);
  const { rows, total } = await pageChatMessages(ctx.db, auth.companyId, chat.id, limit, offset);
  const page = pageAnswer(rows.map(toMessage).reverse(), total, pageNumber, size);

  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

/** POST /chats/:id/messages: the last message reads "<sender>: <text>"; every other member has one more unread */
export const sendChatMessage = async (ctx: TAppContext, auth: TAuth, ref: TChatRef, body: TChatMessageBody) => {
  const companyId = auth.companyId;
  const { chatId, messageId } = await ctx.db.transaction(async (tx) => {
    const row = await loadChat(tx, auth, ref, true);
    const name = (await userNames(tx, companyId, [auth.userId])).get(auth.userId) ?? '';
    const inserted = await insertChatMessage(tx, {
      companyId,
      chatId: row.id,
      senderId: auth.userId,
      message: body.message,
    });
    await countUnread(tx, companyId, row.id, auth.userId);
    await touchChat(tx, companyId, row.id, `${name}: ${body.message}`);

    return { chatId: row.id, messageId: inserted.id };
  });
  const chat = await chatAnswer(ctx.db, auth, chatId);
  const stored = await findChatMessage(ctx.db, companyId, messageId);
  if (!stored) throw notFound(); // the chat was deleted meanwhile
  const message = toMessage(stored);
  const newMessage: TChatNewMessage = { ...message, chat };
  announceChange(ctx, companyId, chat, newMessage);

  return newMessage;
};

/** POST /chats/:id/read: the caller's own unread count back to 0 (another user's id is refused) */
export const markChatRead = async (ctx: TAppContext, auth: TAuth, ref: TChatRef, body: TChatReadBody) => {
  const companyId = auth.companyId;
  const row = await loadChat(ctx.db, auth, ref);
  if (body.userId != null && body.userId !== auth.userId) {
    throw new AppError('ERR_NO_PERMISSION', 'A member marks only its own messages read');
  }
  const changed = await clearUnread(ctx.db, companyId, row.id, auth.userId);
  const chat = await chatAnswer(ctx.db, auth, row.id);
  if (changed) announceChange(ctx, companyId, chat);

  return chat;
};
