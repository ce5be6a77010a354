import { ZSetting, ZUpdateSettingRequest } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { getSettings, updateSetting } from './settings.service';

export const settingsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/settings',
    { config: route({ auth: 'user' }), schema: { tags: ['settings'], response: { 200: z.array(ZSetting) } } },
    (request) => getSettings(ctx, request.auth),
  );
  r.put(
    '/api/settings/:key',
    {
      config: route({ auth: 'admin' }),
      schema: {
        tags: ['settings'],
        params: z.object({ key: z.string().min(1).max(64) }),
        body: ZUpdateSettingRequest,
        response: { 200: ZSetting },
      },
    },
    (request) => updateSetting(ctx, request.auth, request.params.key, request.body.value),
  );
};
