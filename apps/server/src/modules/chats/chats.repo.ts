import { and, asc, count, desc, eq, exists, gt, inArray, ne, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { chatMessages, chats, chatUsers } from '../../db/schema/chats';
import { users } from '../../db/schema/core';
import { likePattern } from '../../lib/paging';

/**
 * Internal chat's queries. Every one takes the company, and the ones a request reaches take the caller too:
 * a chat is found only through one of its members (`chat_users`), so a non-member's lookup finds nothing,
 * exactly as a missing or another company's chat.
 */

export type TChatRow = typeof chats.$inferSelect;

const isMember = (companyId: number, userId: number) =>
  exists(
    sql`(select 1 from ${chatUsers} where ${chatUsers.chatId} = ${chats.id} and ${chatUsers.companyId} = ${companyId} and ${chatUsers.userId} = ${userId})`,
  );

/** `ref` is the chat's id or its uuid (the ancestor's `/chats/:uuid` screen) */
const byRef = (ref: number | string) => (typeof ref === 'number' ? eq(chats.id, ref) : eq(chats.uuid, ref));

/** the chat, when `userId` is one of its members; `lock` holds its row to the end of the transaction */
export const findMemberChat = async (
  db: TDbOrTx,
  companyId: number,
  userId: number,
  ref: number | string,
  lock = false,
) => {
  const query = db
    .select()
    .from(chats)
    .where(and(eq(chats.companyId, companyId), byRef(ref), isMember(companyId, userId)));

  return (lock ? await query.for('update') : await query)[0] as TChatRow | undefined;
};

/** a page of the chats `userId` is a member of, the latest activity first */
export const pageMemberChats = async (
  db: TDbOrTx,
  companyId: number,
  userId: number,
  search: string,
  limit: number,
  offset: number,
) => {
  const where = and(
    eq(chats.companyId, companyId),
    isMember(companyId, userId),
    search ? sql`${chats.title} ILIKE ${likePattern(search)}` : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(chats).where(where).orderBy(desc(chats.updatedAt), desc(chats.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(chats).where(where),
  ]);

  return { rows, total };
};

/** the members of these chats with their names, in the order they were added */
export const membersOf = (db: TDbOrTx, companyId: number, chatIds: number[]) =>
  chatIds.length === 0
    ? Promise.resolve([])
    : db
        .select({
          chatId: chatUsers.chatId,
          userId: chatUsers.userId,
          unreads: chatUsers.unreads,
          name: users.name,
        })
        .from(chatUsers)
        .innerJoin(users, eq(users.id, chatUsers.userId))
        .where(and(eq(chatUsers.companyId, companyId), inArray(chatUsers.chatId, chatIds)))
        .orderBy(asc(chatUsers.createdAt), asc(chatUsers.userId));

/** the user's chats that have unread messages for it, with their counts (one read of its `chat_users` rows) */
export const unreadChatsOf = (db: TDbOrTx, companyId: number, userId: number) =>
  db
    .select({ chatId: chatUsers.chatId, unreads: chatUsers.unreads })
    .from(chatUsers)
    .where(and(eq(chatUsers.companyId, companyId), eq(chatUsers.userId, userId), gt(chatUsers.unreads, 0)))
    .orderBy(asc(chatUsers.chatId));

/** the names of these users of the company (owners, senders) */
export const userNames = async (db: TDbOrTx, companyId: number, ids: number[]) =>
  ids.length === 0
    ? new Map<number, string>()
    : new Map(
        (
          await db
            .select({ id: users.id, name: users.name })
            .from(users)
            .where(and(eq(users.companyId, companyId), inArray(users.id, ids)))
        ).map((u) => [u.id, u.name]),
      );

/** which of these ids are users of the company */
export const companyUserIds = async (db: TDbOrTx, companyId: number, ids: number[]) =>
  ids.length === 0
    ? []
    : (
        await db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.companyId, companyId), inArray(users.id, ids)))
      ).map((u) => u.id);

export const insertChat = async (
  db: TDbOrTx,
  values: { companyId: number; ownerId: number; title: string; memberIds: number[] },
) => {
  const [chat] = await db
    .insert(chats)
    .values({ companyId: values.companyId, ownerId: values.ownerId, title: values.title })
    .returning();
  await db
    .insert(chatUsers)
    .values(values.memberIds.map((userId) => ({ companyId: values.companyId, chatId: chat.id, userId })));

  return chat;
};

export const memberIdsOf = async (db: TDbOrTx, companyId: number, chatId: number) =>
  (
    await db
      .select({ userId: chatUsers.userId })
      .from(chatUsers)
      .where(and(eq(chatUsers.companyId, companyId), eq(chatUsers.chatId, chatId)))
  ).map((m) => m.userId);

/** the members become exactly `memberIds`; those who stay keep their unread counts */
export const replaceMembers = async (db: TDbOrTx, companyId: number, chatId: number, memberIds: number[]) => {
  const current = await memberIdsOf(db, companyId, chatId);
  const gone = current.filter((id) => !memberIds.includes(id));
  const added = memberIds.filter((id) => !current.includes(id));
  if (gone.length > 0) {
    await db
      .delete(chatUsers)
      .where(and(eq(chatUsers.companyId, companyId), eq(chatUsers.chatId, chatId), inArray(chatUsers.userId, gone)));
  }
  if (added.length > 0) {
    await db.insert(chatUsers).values(added.map((userId) => ({ companyId, chatId, userId })));
  }

  return { gone, added };
};

export const setChatTitle = (db: TDbOrTx, companyId: number, chatId: number, title: string) =>
  db
    .update(chats)
    .set({ title })
    .where(and(eq(chats.companyId, companyId), eq(chats.id, chatId)));

/** touches the chat so that it comes first in its members' lists */
export const touchChat = (db: TDbOrTx, companyId: number, chatId: number, lastMessage?: string) =>
  db
    .update(chats)
    .set({ updatedAt: new Date(), ...(lastMessage === undefined ? {} : { lastMessage }) })
    .where(and(eq(chats.companyId, companyId), eq(chats.id, chatId)));

export const deleteChatRow = async (db: TDbOrTx, companyId: number, chatId: number) =>
  (
    await db
      .delete(chats)
      .where(and(eq(chats.companyId, companyId), eq(chats.id, chatId)))
      .returning({ id: chats.id })
  ).length > 0;

export const insertChatMessage = async (
  db: TDbOrTx,
  values: { companyId: number; chatId: number; senderId: number; message: string },
) => (await db.insert(chatMessages).values(values).returning())[0];

/** one more unread message for every member but the sender, whose own count is cleared */
export const countUnread = async (db: TDbOrTx, companyId: number, chatId: number, senderId: number) => {
  const inChat = and(eq(chatUsers.companyId, companyId), eq(chatUsers.chatId, chatId));
  await db
    .update(chatUsers)
    .set({ unreads: sql`${chatUsers.unreads} + 1` })
    .where(and(inChat, ne(chatUsers.userId, senderId)));
  await db
    .update(chatUsers)
    .set({ unreads: 0 })
    .where(and(inChat, eq(chatUsers.userId, senderId)));
};

/** the reader's unread count back to 0; answers whether it changed */
export const clearUnread = async (db: TDbOrTx, companyId: number, chatId: number, userId: number) =>
  (
    await db
      .update(chatUsers)
      .set({ unreads: 0 })
      .where(
        and(
          eq(chatUsers.companyId, companyId),
          eq(chatUsers.chatId, chatId),
          eq(chatUsers.userId, userId),
          ne(chatUsers.unreads, 0),
        ),
      )
      .returning({ userId: chatUsers.userId })
  ).length > 0;

/** a page of a chat's messages counted from the newest (page 1 is the latest), with their senders' names */
export const pageChatMessages = async (
  db: TDbOrTx,
  companyId: number,
  chatId: number,
  limit: number,
  offset: number,
) => {
  const where = and(eq(chatMessages.companyId, companyId), eq(chatMessages.chatId, chatId));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ message: chatMessages, senderName: users.name })
      .from(chatMessages)
      .leftJoin(users, eq(users.id, chatMessages.senderId))
      .where(where)
      .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(chatMessages).where(where),
  ]);

  return { rows, total };
};

export const findChatMessage = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .select({ message: chatMessages, senderName: users.name })
      .from(chatMessages)
      .leftJoin(users, eq(users.id, chatMessages.senderId))
      .where(and(eq(chatMessages.companyId, companyId), eq(chatMessages.id, id)))
  )[0];
