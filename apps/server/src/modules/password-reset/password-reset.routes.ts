import { ZMessageResponse, ZResetPasswordParams, ZResetPasswordRequest, zEmail } from '@zelo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { requestPasswordReset, resetPassword } from './password-reset.service';

/** what a request log line of the path form says: its pattern, never the path (it holds the password) */
const redactedRequest = (req: FastifyRequest) => ({
  method: req.method,
  url: req.routeOptions.url ?? '/api/resetpasswords/:email/:token/:password',
  remoteAddress: req.ip,
});

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
  // the ancestor's client sends the code and the new password in the path: same rules, limits and expiry,
  // and the path never reaches a log (the request's own log line carries the route pattern only)
  r.post(
    '/api/resetpasswords/:email/:token/:password',
    {
      config: route({ auth: 'public', rateLimit: 'resetPassword' }),
      logSerializers: { req: redactedRequest },
      schema: { tags, params: ZResetPasswordParams, response: { 200: ZMessageResponse } },
    },
    (request) => {
      const { email, token, password } = request.params;

      return resetPassword(ctx, { email, code: token, password, passwordConfirmation: password });
    },
  );
};
