import {
  ZChat,
  ZChatBody,
  ZChatMessageBody,
  ZChatMessagePage,
  ZChatMessagesQuery,
  ZChatNewMessage,
  ZChatPage,
  ZChatParams,
  ZChatReadBody,
  ZChatsQuery,
  ZChatUnreads,
  ZChatUpdateBody,
  ZMessageResponse,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import {
  chatUnreads,
  createChat,
  deleteChat,
  getChat,
  listChatMessages,
  listChats,
  markChatRead,
  sendChatMessage,
  updateChat,
} from './chats.service';

/**
 * Internal chat (spec 2 §7), for companies whose plan has `useInternalChat`. `:id` is the chat's id or uuid.
 * Members only: another user's chat answers 404 as a missing one; the owner alone edits or deletes (403).
 */
export const chatsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['chats'];
  const config = route({ auth: 'user', plan: 'useInternalChat' });

  r.get('/api/chats', { config, schema: { tags, querystring: ZChatsQuery, response: { 200: ZChatPage } } }, (request) =>
    listChats(ctx, request.auth, request.query),
  );
  // the top bar's and the side menu's total over all the caller's chats (GET /chats answers a page of them)
  r.get('/api/chats/unreads', { config, schema: { tags, response: { 200: ZChatUnreads } } }, (request) =>
    chatUnreads(ctx, request.auth),
  );
  r.get('/api/chats/:id', { config, schema: { tags, params: ZChatParams, response: { 200: ZChat } } }, (request) =>
    getChat(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/chats',
    { config, schema: { tags, body: ZChatBody, response: { 200: ZChat } } },
    // 200 as the ancestor answers (its dialog reads the chat from it)
    (request) => createChat(ctx, request.auth, request.body),
  );
  r.put(
    '/api/chats/:id',
    { config, schema: { tags, params: ZChatParams, body: ZChatUpdateBody, response: { 200: ZChat } } },
    (request) => updateChat(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/chats/:id',
    { config, schema: { tags, params: ZChatParams, response: { 200: ZMessageResponse } } },
    async (request) => {
      await deleteChat(ctx, request.auth, request.params.id);

      return { message: 'Chat deleted' };
    },
  );
  r.get(
    '/api/chats/:id/messages',
    {
      config,
      schema: { tags, params: ZChatParams, querystring: ZChatMessagesQuery, response: { 200: ZChatMessagePage } },
    },
    (request) => listChatMessages(ctx, request.auth, request.params.id, request.query.pageNumber),
  );
  r.post(
    '/api/chats/:id/messages',
    { config, schema: { tags, params: ZChatParams, body: ZChatMessageBody, response: { 200: ZChatNewMessage } } },
    (request) => sendChatMessage(ctx, request.auth, request.params.id, request.body),
  );
  r.post(
    '/api/chats/:id/read',
    { config, schema: { tags, params: ZChatParams, body: ZChatReadBody, response: { 200: ZChat } } },
    (request) => markChatRead(ctx, request.auth, request.params.id, request.body),
  );
};
