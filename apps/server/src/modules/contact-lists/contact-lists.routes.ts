import {
  CONTACT_LIST_IMPORT_MAX_BYTES,
  ZContactListBody,
  ZContactListItemBody,
  ZContactListItemQuery,
  ZContactListItemUpdateBody,
  ZIdParams,
  ZListQuery,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import { readRequiredUpload, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import {
  assertCampaignsEnabled,
  createContactList,
  createItem,
  deleteContactList,
  deleteItem,
  getContactList,
  getContactListPage,
  getItem,
  getItemPage,
  importContactList,
  listAllContactLists,
  recheckContactList,
  updateContactList,
  updateItem,
} from './contact-lists.service';
import { readContactListSheet } from './contact-lists.sheet';

/**
 * Contact lists and their items (spec 2 §7): the campaigns' audiences. Like the campaign screens, for admins
 * of companies whose plan has `useCampaigns` and whose `campaignsEnabled` setting is on.
 */
export const contactListsRoutes = (app: FastifyInstance, ctx: TAppContext) =>
  app.register(async (scope) => {
    scope.addHook('preHandler', async (request) => {
      if (request.auth) await assertCampaignsEnabled(ctx, request.auth);
    });
    await registerMultipart(scope, { limits: { fileSize: CONTACT_LIST_IMPORT_MAX_BYTES, files: 1, fields: 10 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const decl = route({ auth: 'admin', plan: 'useCampaigns' });
    const config = decl;
    const tags = ['contact-lists'];

    r.get('/api/contact-lists', { config, schema: { tags, querystring: ZListQuery } }, (request) =>
      getContactListPage(ctx, request.auth, request.query),
    );
    // `companyId` in the query (the ancestor sends it) is ignored: always the caller's company
    r.get('/api/contact-lists/list', { config, schema: { tags } }, (request) => listAllContactLists(ctx, request.auth));
    r.get('/api/contact-lists/:id', { config, schema: { tags, params: ZIdParams } }, (request) =>
      getContactList(ctx, request.auth, request.params.id),
    );
    r.post('/api/contact-lists', { config, schema: { tags, body: ZContactListBody } }, async (request, reply) =>
      reply.status(201).send(await createContactList(ctx, request.auth, request.body)),
    );
    r.put(
      '/api/contact-lists/:id',
      { config, schema: { tags, params: ZIdParams, body: ZContactListBody } },
      (request) => updateContactList(ctx, request.auth, request.params.id, request.body),
    );
    r.delete('/api/contact-lists/:id', { config, schema: { tags, params: ZIdParams } }, async (request, reply) => {
      await deleteContactList(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    });
    r.post(
      '/api/contact-lists/:id/upload',
      {
        config,
        schema: {
          tags,
          params: ZIdParams,
          consumes: ['multipart/form-data'],
          description: 'multipart field `file`: an .xlsx workbook or a .csv file with Nome/Número/Email columns',
        },
      },
      async (request) => {
        // the list first: a foreign or missing list answers 404 whatever the body
        await getContactList(ctx, request.auth, request.params.id);
        const upload = await readRequiredUpload(request, 'spreadsheet');
        const rows = await readContactListSheet(ctx.config, request.auth.companyId, upload.fileName, upload.data);

        return importContactList(ctx, request.auth, request.params.id, rows);
      },
    );
    r.post('/api/contact-lists/:id/check', { config, schema: { tags, params: ZIdParams } }, (request) =>
      recheckContactList(ctx, request.auth, request.params.id),
    );

    r.get('/api/contact-list-items', { config, schema: { tags, querystring: ZContactListItemQuery } }, (request) =>
      getItemPage(ctx, request.auth, request.query),
    );
    r.get('/api/contact-list-items/:id', { config, schema: { tags, params: ZIdParams } }, (request) =>
      getItem(ctx, request.auth, request.params.id),
    );
    r.post(
      '/api/contact-list-items',
      { config, schema: { tags, body: ZContactListItemBody } },
      async (request, reply) => reply.status(201).send(await createItem(ctx, request.auth, request.body)),
    );
    r.put(
      '/api/contact-list-items/:id',
      { config, schema: { tags, params: ZIdParams, body: ZContactListItemUpdateBody } },
      (request) => updateItem(ctx, request.auth, request.params.id, request.body),
    );
    r.delete('/api/contact-list-items/:id', { config, schema: { tags, params: ZIdParams } }, async (request, reply) => {
      await deleteItem(ctx, request.auth, request.params.id);

      return reply.status(204).send();
    });
    r.post('/api/contact-list-items/:id/check', { config, schema: { tags, params: ZIdParams } }, async (request) => {
      const item = await getItem(ctx, request.auth, request.params.id);
      await recheckContactList(ctx, request.auth, item.contactListId, item.id);

      return getItem(ctx, request.auth, item.id);
    });
  });
