import { ZIdParams, ZScheduleBody, ZScheduleListQuery, ZScheduleUpdateBody } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import { readSingleUpload, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import { MEDIA_LIMITS } from '../messages/media';
import {
  attachScheduleMedia,
  createSchedule,
  deleteSchedule,
  detachScheduleMedia,
  getSchedule,
  listSchedules,
  updateSchedule,
} from './schedules.service';

/** every route needs the plan's `useSchedules` (the ancestor only hid the menu) */
export const schedulesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['schedules'];
  const config = route({ auth: 'user', plan: 'useSchedules' });
  r.get('/api/schedules', { config, schema: { tags, querystring: ZScheduleListQuery } }, (request) =>
    listSchedules(ctx, request.auth, request.query),
  );
  r.get('/api/schedules/:id', { config, schema: { tags, params: ZIdParams } }, (request) =>
    getSchedule(ctx, request.auth, request.params.id),
  );
  // the ancestor answered 200 to a create; its client reads the body either way
  r.post('/api/schedules', { config, schema: { tags, body: ZScheduleBody } }, async (request, reply) =>
    reply.status(200).send(await createSchedule(ctx, request.auth, request.body)),
  );
  r.put('/api/schedules/:id', { config, schema: { tags, params: ZIdParams, body: ZScheduleUpdateBody } }, (request) =>
    updateSchedule(ctx, request.auth, request.params.id, request.body),
  );
  r.delete('/api/schedules/:id', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await deleteSchedule(ctx, request.auth, request.params.id);

    return { message: 'Schedule deleted' };
  });

  app.register(async (scope) => {
    await registerMultipart(scope, {
      limits: { fileSize: MEDIA_LIMITS.image, files: 1, fields: 10, fieldSize: 1024 },
      throwFileSizeLimit: true,
    });
    const m = scope.withTypeProvider<ZodTypeProvider>();
    m.post(
      '/api/schedules/:id/media-upload',
      {
        config,
        bodyLimit: MEDIA_LIMITS.image + 64 * 1024,
        schema: {
          tags,
          params: ZIdParams,
          consumes: ['multipart/form-data'],
          description: 'multipart field `file`: a png or jpeg image; replaces an earlier one',
        },
      },
      (request) => attachScheduleMedia(ctx, request.auth, request.params.id, () => readSingleUpload(request, 'image')),
    );
    m.delete('/api/schedules/:id/media-upload', { config, schema: { tags, params: ZIdParams } }, (request) =>
      detachScheduleMedia(ctx, request.auth, request.params.id),
    );
  });
};
