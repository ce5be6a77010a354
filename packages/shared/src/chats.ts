import { z } from 'zod';
import { V, zId, zIdOrNone } from './common.js';

/*
 * Internal chat (spec 2 §2, §3, §5, §7). A chat belongs to its members: only they list, read, write or hear it;
 * its owner (the creator, always a member) alone edits or deletes it.
 */

/** spec 2 §5: a title is required (the web form shows the alert `fillTitle`) */
export const zChatTitle = z.string({ error: V.required }).trim().min(1, V.required).max(100, V.tooLong);

/** the ancestor's user filter sends `{id, name}`; only the id is read */
const ZChatMember = z.object({ id: zId }).loose();

/** spec 2 §5: at least one user besides the owner (`fillUser`); the owner may be listed or not */
const zChatMembers = z.array(ZChatMember, { error: V.required }).min(1, V.required).max(500, V.tooLong);

/** POST /chats */
export const ZChatBody = z.object({
  title: zChatTitle,
  users: zChatMembers,
});
export type TChatBody = z.infer<typeof ZChatBody>;

/** PUT /chats/:id: the title and/or the members (the whole list, owner kept whatever is sent) */
export const ZChatUpdateBody = z.object({
  title: zChatTitle.optional(),
  users: zChatMembers.optional(),
});
export type TChatUpdateBody = z.infer<typeof ZChatUpdateBody>;

/** POST /chats/:id/messages */
export const ZChatMessageBody = z.object({
  message: z.string({ error: V.required }).trim().min(1, V.required).max(4000, V.tooLong),
});
export type TChatMessageBody = z.infer<typeof ZChatMessageBody>;

/**
 * POST /chats/:id/read: the ancestor sends the reader's own id; another user's id is refused (a member marks
 * only its own unread messages read), none given is the caller.
 */
export const ZChatReadBody = z.object({ userId: zIdOrNone.optional() }).loose();
export type TChatReadBody = z.infer<typeof ZChatReadBody>;

/** a chat is named by its id or, as the ancestor's `/chats/:uuid` screen holds it, by its uuid */
export const zChatRef = z.union([zId, z.guid(V.invalid)], { error: V.invalid });
export const ZChatParams = z.object({ id: zChatRef });

export const ZChatsQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).default(1),
});
export type TChatsQuery = z.infer<typeof ZChatsQuery>;
export const ZChatMessagesQuery = ZChatsQuery.pick({ pageNumber: true });

const ZUserBrief = z.object({ id: z.number(), name: z.string() });

export const ZChatUser = z.object({
  chatId: z.number(),
  userId: z.number(),
  unreads: z.number(),
  user: ZUserBrief,
});
export type TChatUser = z.infer<typeof ZChatUser>;

export const ZChat = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number().nullable(),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  owner: ZUserBrief.nullable(),
  users: z.array(ZChatUser),
});
export type TChat = z.infer<typeof ZChat>;

export const ZChatMessage = z.object({
  id: z.number(),
  chatId: z.number(),
  senderId: z.number().nullable(),
  message: z.string(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  sender: ZUserBrief.nullable(),
});
export type TChatMessage = z.infer<typeof ZChatMessage>;

/** the answer of POST /chats/:id/messages and the `newMessage` of its events: the message with its chat */
export const ZChatNewMessage = ZChatMessage.extend({ chat: ZChat });
export type TChatNewMessage = z.infer<typeof ZChatNewMessage>;

export const ZChatPage = z.object({ records: z.array(ZChat), count: z.number(), hasMore: z.boolean() });
/**
 * GET /chats/unreads: the caller's unread messages over all its chats (`unreads`) and, for each chat that has
 * some, its count (`chats`), so the web keeps the total exact from the chat events that carry one chat's count.
 */
export const ZChatUnreads = z.object({
  unreads: z.number(),
  chats: z.array(z.object({ chatId: z.number(), unreads: z.number() })),
});
export type TChatUnreads = z.infer<typeof ZChatUnreads>;
export const ZChatMessagePage = z.object({
  records: z.array(ZChatMessage),
  count: z.number(),
  hasMore: z.boolean(),
});

/** `company-{id}-chat`, heard by the chat's members only */
export type TChatEvent =
  | { action: 'new-message'; newMessage: TChatNewMessage; chat: TChat }
  | { action: 'update'; chat: TChat }
  | { action: 'delete'; id: number };
/** `company-{id}-chat-user-{userId}`: a chat the user joined or that changed */
export type TChatUserEvent = { action: 'create' | 'update'; record: TChat };
/** `company-{id}-chat-{chatId}`: the open conversation */
export type TChatRoomEvent =
  | { action: 'new-message'; newMessage: TChatNewMessage; chat: TChat }
  | { action: 'update'; chat: TChat };
