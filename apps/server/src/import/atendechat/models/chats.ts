/**
 * The internal chat: chats (uuid kept), their members and messages (media copied). Rules: a chat of no
 * imported company is skipped; a member or sender who is not a user of that company is left out (a
 * message keeps its text without its sender).
 */
import { randomUUID } from 'node:crypto';
import { chatMessages, chatUsers, chats } from '../../../db/schema/chats';
import { cut, idOrNull, int, nameOr } from '../clean';
import { insertRows } from '../insert';
import { idsOf, ownersOf, type TModel, takenOf } from '../model';
import { restoreAll, restoreKeys, restoreOwned } from './_restore';
import { ownId } from './automation';
import { stamps } from './contacts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type TChat = typeof chats.$inferInsert;
export const chatsModel: TModel<TChat> = {
  name: 'chats',
  table: 'Chats',
  key: ['id'],
  required: ['id', 'ownerId', 'companyId'],
  optional: ['title', 'uuid', 'lastMessage', 'createdAt', 'updatedAt'],
  restore: restoreAll(restoreOwned('chats', 'chats'), restoreKeys('chat uuid', 'select uuid::text as k from chats')),
  map: (r, { state }) => {
    const companyId = idOrNull(r.companyId);
    if (companyId === null || !idsOf(state, 'companies').has(companyId)) return { skip: 'chat of no imported company' };
    const id = idOrNull(r.id)!;
    const adjusted: string[] = [];
    let uuid = String(r.uuid ?? '').toLowerCase();
    const uuids = takenOf(state, 'chat uuid');
    if (!UUID.test(uuid) || uuids.has(uuid)) {
      uuid = randomUUID();
      adjusted.push('uuid missing or repeated: a new one');
    }
    uuids.add(uuid);
    idsOf(state, 'chats').add(id);
    ownersOf(state, 'chats').set(id, companyId);

    return {
      adjusted,
      row: {
        id,
        companyId,
        uuid,
        title: nameOr(r.title, 100, `Chat ${id}`),
        ownerId: ownId(state, 'users', r.ownerId, companyId),
        lastMessage: cut(r.lastMessage, 100_000),
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, chats, rows);
    return undefined;
  },
};

type TMember = typeof chatUsers.$inferInsert;
export const chatUsersModel: TModel<TMember> = {
  name: 'chat members',
  table: 'ChatUsers',
  key: ['id'],
  required: ['id', 'chatId', 'userId'],
  optional: ['unreads', 'createdAt', 'updatedAt'],
  restore: restoreKeys('chat member', "select chat_id || ':' || user_id as k from chat_users"),
  map: (r, { state }) => {
    const chatId = idOrNull(r.chatId);
    const companyId = chatId === null ? undefined : ownersOf(state, 'chats').get(chatId);
    if (companyId === undefined) return { skip: 'member of no imported chat' };
    const userId = ownId(state, 'users', r.userId, companyId);
    if (userId === null) return { skip: 'member is not a user of the chat company' };
    const taken = takenOf(state, 'chat member');
    if (taken.has(`${chatId}:${userId}`)) return { skip: 'member twice in a chat (first kept)' };
    taken.add(`${chatId}:${userId}`);

    return { row: { companyId, chatId: chatId!, userId, unreads: int(r.unreads, 0), ...stamps(r) } };
  },
  write: async (tx, rows) => {
    await insertRows(tx, chatUsers, rows);
    return undefined;
  },
};

type TChatMessage = typeof chatMessages.$inferInsert;
export const chatMessagesModel: TModel<TChatMessage> = {
  name: 'chat messages',
  table: 'ChatMessages',
  key: ['id'],
  required: ['id', 'chatId', 'senderId'],
  optional: ['message', 'mediaPath', 'mediaName', 'createdAt', 'updatedAt'],
  batch: 1000,
  map: async (r, { state, media }) => {
    const chatId = idOrNull(r.chatId);
    const companyId = chatId === null ? undefined : ownersOf(state, 'chats').get(chatId);
    if (companyId === undefined) return { skip: 'message of no imported chat' };
    const adjusted: string[] = [];
    let mediaPath: string | null = null;
    let mediaName: string | null = null;
    const copied = await media(r.mediaPath, ['chat', 'chats']);
    if (copied && 'stored' in copied) {
      mediaPath = copied.stored;
      mediaName = cut(r.mediaName, 255) || copied.name;
    } else if (copied) adjusted.push(copied.problem);

    return {
      adjusted,
      row: {
        id: idOrNull(r.id)!,
        companyId,
        chatId: chatId!,
        senderId: ownId(state, 'users', r.senderId, companyId),
        message: cut(r.message, 100_000),
        mediaPath,
        mediaName,
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, chatMessages, rows);
    return undefined;
  },
};
