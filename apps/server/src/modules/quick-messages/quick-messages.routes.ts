import { ZIdParams, ZListQuery, ZQuickMessageBody, ZQuickMessageUpdateBody } from '@zelo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import { findUnstorableText } from '../../http/input-guard';
import { readingMultipart, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import { MAX_UPLOAD_BYTES } from '../messages/media';
import {
  attachQuickMessageMedia,
  createQuickMessage,
  detachQuickMessageMedia,
  deleteQuickMessage,
  getQuickMessage,
  getQuickMessagePage,
  listForComposer,
  type TQuickMessageUpload,
  updateQuickMessage,
} from './quick-messages.service';

/**
 * The attachment's multipart form as the ancestor sends it: the file in `file` (the first file part is taken),
 * `typeArch` ("quickMessage", the ancestor's storage folder: read and ignored).
 */
const readUpload = (request: FastifyRequest) =>
  readingMultipart(async () => {
    if (!request.isMultipart()) {
      throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data');
    }
    let upload: TQuickMessageUpload | undefined;
    for await (const part of request.parts()) {
      const text = part.type === 'file' ? part.filename : part.value;
      const unstorable = findUnstorableText({ [part.fieldname]: text }, 'body');
      if (unstorable) throw new AppError('ERR_VALIDATION', 'Invalid character in the request', [unstorable]);
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      upload ??= { data, fileName: part.filename };
    }

    return upload;
  });

export const quickMessagesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['quick-messages'];
  // `companyId` and `userId` in the query (spec 1 §7) are ignored: the caller's company and the caller
  r.get('/api/quick-messages/list', { config: route({ auth: 'user' }), schema: { tags } }, (request) =>
    listForComposer(ctx, request.auth),
  );
  r.get(
    '/api/quick-messages',
    { config: route({ auth: 'user' }), schema: { tags, querystring: ZListQuery } },
    (request) => getQuickMessagePage(ctx, request.auth, request.query),
  );
  r.get(
    '/api/quick-messages/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } },
    (request) => getQuickMessage(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/quick-messages',
    { config: route({ auth: 'user' }), schema: { tags, body: ZQuickMessageBody } },
    async (request, reply) => reply.status(201).send(await createQuickMessage(ctx, request.auth, request.body)),
  );
  r.put(
    '/api/quick-messages/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams, body: ZQuickMessageUpdateBody } },
    (request) => updateQuickMessage(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/quick-messages/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteQuickMessage(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );

  // the attachment: multipart parsing only in this context
  app.register(async (scope) => {
    await registerMultipart(scope, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024 },
      throwFileSizeLimit: true,
    });
    const m = scope.withTypeProvider<ZodTypeProvider>();
    m.post(
      '/api/quick-messages/:id/media-upload',
      {
        config: route({ auth: 'user' }),
        bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
        schema: {
          tags,
          params: ZIdParams,
          consumes: ['multipart/form-data'],
          description: 'multipart: `file` (the attachment), `typeArch`; replaces an earlier attachment',
        },
      },
      (request) => attachQuickMessageMedia(ctx, request.auth, request.params.id, () => readUpload(request)),
    );
    m.delete(
      '/api/quick-messages/:id/media-upload',
      { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } },
      (request) => detachQuickMessageMedia(ctx, request.auth, request.params.id),
    );
  });
};
