import { MESSAGES_API_PATH, ZApiSendBody, ZApiSendForm } from '@zelo/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { TMedia } from '../../channels/types';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import { findUnstorableText } from '../../http/input-guard';
import { readingMultipart, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import { MAX_UPLOAD_BYTES } from '../messages/media';
import { apiCallerOf, authenticateApiToken, checkIdempotencyKey, sendThroughApi } from './messages-api.service';
import { createTokenGuesses } from './token-guesses';

/** files one request may carry */
const MAX_FILES = 10;
/** what one request may weigh: two documents at their limit (larger batches go in several requests) */
const MAX_REQUEST_BYTES = 2 * MAX_UPLOAD_BYTES + 1024 * 1024;

const invalid = (issues: z.core.$ZodIssue[]) =>
  new AppError(
    'ERR_VALIDATION',
    'Invalid body',
    issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message })),
  );

/** the multipart form: `number`, `body` (the caption), `medias` files (also `medias[]`) */
const readForm = (request: FastifyRequest) =>
  readingMultipart(async () => {
    const fields: Record<string, string> = {};
    const files: TMedia[] = [];
    for await (const part of request.parts()) {
      const text = part.type === 'file' ? part.filename : part.value;
      const unstorable = findUnstorableText({ [part.fieldname]: text }, 'body');
      if (unstorable) throw new AppError('ERR_VALIDATION', 'Invalid character in the request', [unstorable]);
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'medias' || part.fieldname === 'medias[]') {
          files.push({ data, mimetype: part.mimetype, fileName: part.filename });
        }
        continue;
      }
      if (part.fieldname === 'number' || part.fieldname === 'body') {
        fields[part.fieldname] = String(part.value ?? '').replace(/\r\n/g, '\n');
      }
    }
    const parsed = ZApiSendForm.safeParse(fields);
    if (!parsed.success) throw invalid(parsed.error.issues);
    if (files.length === 0) throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'medias', message: 'required' }]);

    return { ...parsed.data, files };
  });

/** the `token` routes' authentication, handed to http/authenticate.ts by app.ts, with this server's guess counters */
export const tokenAuthenticator = (ctx: TAppContext) => {
  const guesses = ctx.config.rateLimits ? createTokenGuesses() : undefined;

  return (request: FastifyRequest, reply: FastifyReply) => authenticateApiToken(ctx, request, reply, guesses);
};

/**
 * The external messages API (issue 12 item 7): `POST /api/messages/send` with `Authorization: Bearer <the
 * connection's token>`, JSON `{number, body}` or multipart `number`, `body`, `medias`; optional
 * `Idempotency-Key`. The token, the company and the plan are checked before the body is read.
 */
export const messagesApiRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  app.register(async (scope) => {
    await registerMultipart(scope, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: MAX_FILES, fields: 20, fieldSize: 64 * 1024 },
      throwFileSizeLimit: true,
    });
    scope.post(
      MESSAGES_API_PATH,
      {
        config: route({ auth: 'token', plan: 'useExternalApi', rateLimit: 'externalApi' }),
        bodyLimit: MAX_REQUEST_BYTES,
        schema: {
          tags: ['external API'],
          description:
            'Bearer: a connection token. JSON `{number, body}` or multipart `number`, `body`, `medias` files; ' +
            'optional `Idempotency-Key` header (the same key within 24 h answers the first answer, nothing sent). ' +
            'Answers `{mensagem, messageId, messageIds, ticketId, contactId}`.',
        },
      },
      async (request, reply) => {
        const caller = apiCallerOf(request);
        const key = checkIdempotencyKey(request.headers['idempotency-key']);
        let input: { number: string; body: string; files: TMedia[] };
        if (request.isMultipart()) input = await readForm(request);
        else {
          const parsed = ZApiSendBody.safeParse(request.body ?? {});
          if (!parsed.success) throw invalid(parsed.error.issues);
          input = { ...parsed.data, files: [] };
        }
        const result = await sendThroughApi(ctx, caller, input, key);
        if (result.replayed) reply.header('idempotency-replayed', 'true');

        return reply.status(result.status).send(result.body);
      },
    );
  });
};
