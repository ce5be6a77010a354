import {
  SANDBOX_MEDIA_MAX_BYTES,
  ZSandboxCallBody,
  ZSandboxConnectionParams,
  ZSandboxDeleteBody,
  ZSandboxEditBody,
  ZSandboxInboundBody,
  ZSandboxOutboxQuery,
  ZSandboxReadBody,
  ZSandboxScanBody,
} from '@zelo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import { readingMultipart, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import {
  customerCalls,
  customerDeletes,
  customerEdits,
  customerOutbox,
  customerReads,
  deliverInbound,
  scanQr,
  type TInboundRequest,
} from './sandbox.service';

/** JSON bodies carry base64 media: room for the largest media, encoded */
const INBOUND_BODY_LIMIT = Math.ceil((SANDBOX_MEDIA_MAX_BYTES * 4) / 3) + 64 * 1024;

/** multipart fields that hold JSON (location, group) or booleans */
const JSON_FIELDS = new Set(['location', 'group']);

/** a multipart inbound: the fields as the JSON body has them, the file part as the media */
const readMultipart = (request: FastifyRequest) => readingMultipart(() => readParts(request));

const readParts = async (request: FastifyRequest): Promise<TInboundRequest> => {
  const fields: Record<string, unknown> = {};
  let media: TInboundRequest['media'];
  for await (const part of request.parts({ limits: { fileSize: SANDBOX_MEDIA_MAX_BYTES, files: 1, fields: 30 } })) {
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (part.file.truncated) throw new AppError('ERR_PAYLOAD_TOO_LARGE', 'The media is too large');
      media = { data, mimetype: part.mimetype, fileName: part.filename };
      continue;
    }
    const value = String(part.value);
    if (JSON_FIELDS.has(part.fieldname)) {
      try {
        fields[part.fieldname] = JSON.parse(value);
      } catch {
        throw new AppError('ERR_VALIDATION', `Invalid ${part.fieldname}`, [
          { path: part.fieldname, message: 'invalid' },
        ]);
      }
    } else if (part.fieldname === 'fromMe') fields.fromMe = value === 'true' || value === '1';
    else if (part.fieldname === 'latitude' || part.fieldname === 'longitude' || part.fieldname === 'description') {
      fields.location = { ...(fields.location as object), [part.fieldname]: value };
    } else fields[part.fieldname] = value;
  }
  const parsed = ZSandboxInboundBody.omit({ media: true }).safeParse(fields);
  if (!parsed.success) {
    throw new AppError(
      'ERR_VALIDATION',
      'Invalid body',
      parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message })),
    );
  }

  return { ...parsed.data, media };
};

export const sandboxRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  // multipart parsing for these routes only (other modules may register their own)
  app.register(async (scope) => {
    await registerMultipart(scope);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['sandbox'];
    const config = route({ auth: 'admin' });
    // what the simulated customer sends is channel text: cleaned where it is stored, never refused
    const customerText = route({ auth: 'admin', channelText: true });
    const params = ZSandboxConnectionParams;

    r.post('/api/sandbox/:connectionId/scan', { config, schema: { tags, params, body: ZSandboxScanBody } }, (request) =>
      scanQr(ctx, request.auth, request.params.connectionId, request.body ?? {}),
    );
    r.post(
      '/api/sandbox/:connectionId/inbound',
      {
        config: customerText,
        bodyLimit: INBOUND_BODY_LIMIT,
        schema: {
          tags,
          params,
          // JSON is validated here; multipart (no parsed body) is validated from its parts
          body: ZSandboxInboundBody.nullish(),
          consumes: ['application/json', 'multipart/form-data'],
        },
      },
      async (request) => {
        const body: TInboundRequest | undefined = request.isMultipart()
          ? await readMultipart(request)
          : (request.body ?? undefined);
        if (!body) throw new AppError('ERR_VALIDATION', 'A body is required', [{ path: 'body', message: 'required' }]);

        return deliverInbound(ctx, request.auth, request.params.connectionId, body);
      },
    );
    r.get(
      '/api/sandbox/:connectionId/outbox',
      { config, schema: { tags, params, querystring: ZSandboxOutboxQuery } },
      (request) => customerOutbox(ctx, request.auth, request.params.connectionId, request.query),
    );
    r.post('/api/sandbox/:connectionId/read', { config, schema: { tags, params, body: ZSandboxReadBody } }, (request) =>
      customerReads(ctx, request.auth, request.params.connectionId, request.body),
    );
    r.post(
      '/api/sandbox/:connectionId/edit',
      { config: customerText, schema: { tags, params, body: ZSandboxEditBody } },
      (request) => customerEdits(ctx, request.auth, request.params.connectionId, request.body),
    );
    r.post(
      '/api/sandbox/:connectionId/delete',
      { config, schema: { tags, params, body: ZSandboxDeleteBody } },
      (request) => customerDeletes(ctx, request.auth, request.params.connectionId, request.body),
    );
    r.post('/api/sandbox/:connectionId/call', { config, schema: { tags, params, body: ZSandboxCallBody } }, (request) =>
      customerCalls(ctx, request.auth, request.params.connectionId, request.body),
    );
  });
};
