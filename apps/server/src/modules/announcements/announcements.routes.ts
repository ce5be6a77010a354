import {
  ZAnnouncement,
  ZAnnouncementBody,
  ZAnnouncementPage,
  ZAnnouncementUpdateBody,
  ZIdParams,
  ZListQuery,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import { readRequiredUpload, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import { MEDIA_LIMITS } from '../messages/media';
import {
  attachAnnouncementImage,
  createAnnouncement,
  deleteAnnouncement,
  getAnnouncement,
  listActiveAnnouncements,
  listAnnouncements,
  removeAnnouncementImage,
  updateAnnouncement,
} from './announcements.service';

/**
 * Announcements (spec 2 §7): everybody signed in reads, the super user writes. `GET /announcements` answers
 * the super user every announcement and anyone else the active ones (the ancestor's popover reads it);
 * `GET /announcements/for-company` answers the active ones to everyone (Zelo's popover, the super user's too).
 */
export const announcementsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['announcements'];
  const pageSchema = { tags, querystring: ZListQuery, response: { 200: ZAnnouncementPage } };
  r.get('/api/announcements', { config: route({ auth: 'user' }), schema: pageSchema }, (request) =>
    listAnnouncements(ctx, request.auth, request.query),
  );
  r.get('/api/announcements/for-company', { config: route({ auth: 'user' }), schema: pageSchema }, (request) =>
    listActiveAnnouncements(ctx, request.auth, request.query),
  );
  r.get(
    '/api/announcements/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams, response: { 200: ZAnnouncement } } },
    (request) => getAnnouncement(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/announcements',
    { config: route({ auth: 'super' }), schema: { tags, body: ZAnnouncementBody, response: { 201: ZAnnouncement } } },
    async (request, reply) => reply.status(201).send(await createAnnouncement(ctx, request.body)),
  );
  r.put(
    '/api/announcements/:id',
    {
      config: route({ auth: 'super' }),
      schema: { tags, params: ZIdParams, body: ZAnnouncementUpdateBody, response: { 200: ZAnnouncement } },
    },
    (request) => updateAnnouncement(ctx, request.params.id, request.body),
  );
  r.delete(
    '/api/announcements/:id',
    { config: route({ auth: 'super' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteAnnouncement(ctx, request.params.id);

      return reply.status(204).send();
    },
  );
  r.delete(
    '/api/announcements/:id/media-upload',
    { config: route({ auth: 'super' }), schema: { tags, params: ZIdParams, response: { 200: ZAnnouncement } } },
    (request) => removeAnnouncementImage(ctx, request.params.id),
  );

  // the image upload: multipart parsing only in this scope (unless the server already parses it)
  app.register(async (scope) => {
    await registerMultipart(scope, {
      limits: { fileSize: MEDIA_LIMITS.image, files: 1, fields: 10 },
      throwFileSizeLimit: true,
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/announcements/:id/media-upload',
      {
        config: route({ auth: 'super' }),
        schema: {
          tags,
          params: ZIdParams,
          consumes: ['multipart/form-data'],
          description: 'multipart field `file`: a png or jpeg image',
          response: { 200: ZAnnouncement },
        },
      },
      async (request) => {
        const upload = await readRequiredUpload(request, 'image');
        if (upload.data.length === 0) {
          throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'file', message: 'required' }]);
        }

        return attachAnnouncementImage(ctx, request.params.id, upload);
      },
    );
  });
};
