import { ZEditMessageBody, ZIdParams, ZMessageListQuery, ZSendTextBody } from '@zelo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TMedia } from '../../channels/types';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import { findUnstorableText } from '../../http/input-guard';
import { readingMultipart, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import { MAX_UPLOAD_BYTES } from './media';
import {
  deleteMessage,
  editMessage,
  listMessages,
  readTicket,
  retryMessage,
  sendMedia,
  sendText,
} from './messages.service';

const ZTicketParams = z.object({ ticketId: ZIdParams.shape.id });
const MAX_FILES = 10;

/** `medias` files in order, `body` as repeated fields or one JSON array, optional quotedMsg / clientId */
const readMultipart = (request: FastifyRequest) => readingMultipart(() => readParts(request));

const readParts = async (request: FastifyRequest) => {
  const files: TMedia[] = [];
  const bodies: string[] = [];
  let quotedMessageId: number | null = null;
  let clientId: string | null = null;
  for await (const part of request.parts()) {
    const unstorable = findUnstorableText(
      { [part.fieldname]: part.type === 'file' ? part.filename : part.value },
      'body',
    );
    if (unstorable) throw new AppError('ERR_VALIDATION', 'Invalid character in the request', [unstorable]);
    if (part.type === 'file') {
      files.push({ data: await part.toBuffer(), mimetype: part.mimetype, fileName: part.filename });
      continue;
    }
    // browsers send the text fields of a multipart form with CRLF line breaks: store them as typed (LF)
    const value = (typeof part.value === 'string' ? part.value : String(part.value ?? '')).replace(/\r\n/g, '\n');
    if (part.fieldname === 'body' || part.fieldname === 'body[]') {
      if (value.trim().startsWith('[')) {
        try {
          const list = JSON.parse(value);
          if (Array.isArray(list)) {
            bodies.push(...list.map((v) => String(v ?? '')));
            continue;
          }
        } catch {
          // a caption that merely starts with a bracket
        }
      }
      bodies.push(value);
    } else if (part.fieldname === 'quotedMsg' || part.fieldname === 'quotedMsgId') {
      const id = Number(value.trim().startsWith('{') ? JSON.parse(value).id : value);
      quotedMessageId = Number.isInteger(id) && id > 0 ? id : null;
    } else if (part.fieldname === 'clientId') {
      clientId = value.slice(0, 64) || null;
    }
  }

  return { files, bodies: bodies.map((b) => b.slice(0, 65_536)), quotedMessageId, clientId };
};

export const messagesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  app.register(async (scope) => {
    await registerMultipart(scope, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: MAX_FILES, fields: 40, fieldSize: 256 * 1024 },
      throwFileSizeLimit: true,
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['messages'];
    r.get(
      '/api/messages/:ticketId',
      { config: route({ auth: 'user' }), schema: { tags, params: ZTicketParams, querystring: ZMessageListQuery } },
      async (request, reply) =>
        reply
          .type('application/json; charset=utf-8')
          .send(await listMessages(ctx, request.auth, request.params.ticketId, request.query.pageNumber)),
    );
    r.post(
      '/api/messages/:ticketId',
      {
        config: route({ auth: 'user' }),
        bodyLimit: MAX_UPLOAD_BYTES * MAX_FILES,
        schema: { tags, params: ZTicketParams, description: 'JSON (ZSendTextBody) or multipart: medias files, body' },
      },
      async (request, reply) => {
        const ticketId = request.params.ticketId;
        if (request.isMultipart()) {
          const input = await readMultipart(request);
          if (input.files.length === 0) {
            throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'medias', message: 'required' }]);
          }
          const sent = await sendMedia(ctx, request.auth, ticketId, input);

          return reply.status(201).send(sent.length === 1 ? sent[0] : sent);
        }
        const parsed = ZSendTextBody.safeParse(request.body ?? {});
        if (!parsed.success) {
          throw new AppError(
            'ERR_VALIDATION',
            'Invalid body',
            parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message })),
          );
        }

        return reply.status(201).send(await sendText(ctx, request.auth, ticketId, parsed.data));
      },
    );
    r.post(
      '/api/messages/:ticketId/read',
      { config: route({ auth: 'user' }), schema: { tags, params: ZTicketParams } },
      (request) => readTicket(ctx, request.auth, request.params.ticketId),
    );
    r.post(
      '/api/messages/:id/retry',
      {
        config: route({ auth: 'user' }),
        schema: { tags, params: ZIdParams, description: 'send an own failed message again' },
      },
      (request) => retryMessage(ctx, request.auth, request.params.id),
    );
    r.put(
      '/api/messages/:id',
      { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams, body: ZEditMessageBody } },
      (request) => editMessage(ctx, request.auth, request.params.id, request.body.body),
    );
    r.delete('/api/messages/:id', { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } }, (request) =>
      deleteMessage(ctx, request.auth, request.params.id),
    );
  });
};
