import {
  ZContactBody,
  ZContactBriefQuery,
  ZContactListQuery,
  ZContactUpdateBody,
  ZContactUploadBody,
  ZIdParams,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import { readRequiredUpload, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import {
  createContact,
  deleteContact,
  getContact,
  getContactPage,
  getContactsBrief,
  importContacts,
  importProgress,
  toggleDisableBot,
  updateContact,
  uploadRowToImport,
} from './contacts.service';
import { isZip, readContactSheet } from './contacts.xlsx';

/** the largest .xlsx accepted by POST /contacts/import */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

export const contactsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['contacts'];
  r.get(
    '/api/contacts',
    { config: route({ auth: 'user' }), schema: { tags, querystring: ZContactListQuery } },
    (request) => getContactPage(ctx, request.auth, request.query),
  );
  r.get(
    '/api/contacts/list',
    { config: route({ auth: 'user' }), schema: { tags, querystring: ZContactBriefQuery } },
    (request) => getContactsBrief(ctx, request.auth, request.query.searchParam),
  );
  r.get('/api/contacts/:id', { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } }, (request) =>
    getContact(ctx, request.auth, request.params.id),
  );
  r.post(
    '/api/contacts',
    { config: route({ auth: 'user' }), schema: { tags, body: ZContactBody } },
    async (request, reply) => reply.status(201).send(await createContact(ctx, request.auth, request.body)),
  );
  r.put(
    '/api/contacts/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams, body: ZContactUpdateBody } },
    (request) => updateContact(ctx, request.auth, request.params.id, request.body),
  );
  r.put(
    '/api/contacts/toggleDisableBot/:id',
    { config: route({ auth: 'user' }), schema: { tags, params: ZIdParams } },
    (request) => toggleDisableBot(ctx, request.auth, request.params.id),
  );
  // spec 1 §6 / spec 2 §6: 'contacts-page:deleteContact' is an admin permission
  r.delete(
    '/api/contacts/:id',
    { config: route({ auth: 'admin' }), schema: { tags, params: ZIdParams } },
    async (request, reply) => {
      await deleteContact(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    },
  );
  r.post(
    '/api/contacts/upload',
    { config: route({ auth: 'user' }), schema: { tags, body: ZContactUploadBody } },
    (request) => importContacts(ctx, request.auth, request.body.map(uploadRowToImport)),
  );

  // the .xlsx import: multipart parsing only in this context (unless the server already parses it)
  app.register(async (sub) => {
    await registerMultipart(sub, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10 } });
    sub.post(
      '/api/contacts/import',
      {
        config: route({ auth: 'user' }),
        schema: { tags, consumes: ['multipart/form-data'], description: 'multipart field `file`: an .xlsx workbook' },
      },
      async (request) => {
        const { fileName, data } = await readRequiredUpload(request, '.xlsx file');
        if (!fileName.toLowerCase().endsWith('.xlsx') || !isZip(data)) {
          throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Only .xlsx spreadsheets are accepted');
        }
        const rows = await readContactSheet(ctx.config, request.auth.companyId, data);

        return importContacts(ctx, request.auth, rows, importProgress(ctx, request.auth));
      },
    );
  });
};
