import { REFRESH_COOKIE, REFRESH_TOKEN_TTL_DAYS, ZAuthResponse, ZLoginRequest, ZSessionUser } from '@zelo/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { login, logout, me, refresh } from './auth.service';

const COOKIE_PATH = '/api/auth';

export const authRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const secure = ctx.config.publicUrl.startsWith('https://');
  const setCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: COOKIE_PATH,
      maxAge: REFRESH_TOKEN_TTL_DAYS * 86_400,
    });

  r.post(
    '/api/auth/login',
    {
      config: route({ auth: 'public', rateLimit: 'login' }),
      schema: { tags, body: ZLoginRequest, response: { 200: ZAuthResponse } },
    },
    async (request, reply) => {
      const { refreshToken, ...answer } = await login(ctx, request.body, {
        userAgent: request.headers['user-agent'] ?? '',
        ip: request.ip,
      });
      setCookie(reply, refreshToken);

      return answer;
    },
  );
  r.post(
    '/api/auth/refresh_token',
    { config: route({ auth: 'refresh', rateLimit: 'refresh' }), schema: { tags, response: { 200: ZAuthResponse } } },
    async (request, reply) => {
      try {
        const { refreshToken, ...answer } = await refresh(ctx, request.cookies[REFRESH_COOKIE]);
        setCookie(reply, refreshToken);

        return answer;
      } catch (err) {
        reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
        throw err;
      }
    },
  );
  r.delete(
    '/api/auth/logout',
    { config: route({ auth: 'user', allowExpired: true }), schema: { tags } },
    async (request, reply) => {
      await logout(ctx, request.auth);
      reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });

      return reply.status(204).send();
    },
  );
  r.get(
    '/api/auth/me',
    { config: route({ auth: 'user', allowExpired: true }), schema: { tags, response: { 200: ZSessionUser } } },
    (request) => me(ctx, request.auth),
  );
};
