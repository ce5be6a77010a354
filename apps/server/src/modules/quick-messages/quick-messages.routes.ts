import { ZIdParams, ZListQuery, ZQuickMessageBody, ZQuickMessageUpdateBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import { readSingleUpload, registerMultipart } from '../../http/multipart';
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
  updateQuickMessage,
} from './quick-messages.service';

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
      (request) =>
        attachQuickMessageMedia(ctx, request.auth, request.params.id, () => readSingleUpload(request, 'file')),
    );
    m.delete(
      '/api/quick-messages/:id/media-upload',
      { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } },
      (request) => detachQuickMessageMedia(ctx, request.auth, request.params.id),
    );
  });
};
