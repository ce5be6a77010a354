import { ZMessageResponse, ZResetPasswordRequest, zEmail } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { requestPasswordReset, resetPassword } from './password-reset.service';

export const passwordResetRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  r.post(
    '/api/forgetpassword/:email',
    {
      config: route({ auth: 'public', rateLimit: 'forgotPassword' }),
      schema: { tags, params: z.object({ email: zEmail() }), response: { 200: ZMessageResponse } },
    },
    (request) => requestPasswordReset(ctx, request.params.email),
  );
  r.post(
    '/api/resetpasswords',
    {
      config: route({ auth: 'public', rateLimit: 'resetPassword' }),
      schema: { tags, body: ZResetPasswordRequest, response: { 200: ZMessageResponse } },
    },
    (request) => resetPassword(ctx, request.body),
  );
};
