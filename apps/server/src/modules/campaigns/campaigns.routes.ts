import {
  campaignSettingsToRows,
  ZCampaignBody,
  ZCampaignListQuery,
  ZCampaignReportQuery,
  ZCampaignSettingsBody,
  ZCampaignUpdateBody,
  ZIdParams,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import { readSingleUpload, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import { MAX_UPLOAD_BYTES } from '../messages/media';
import { getCampaignSettings, saveCampaignSettings } from './campaign-settings';
import {
  assertCampaignsEnabled,
  attachCampaignMedia,
  campaignReport,
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  detachCampaignMedia,
  getCampaign,
  listCampaigns,
  restartCampaignRoute,
  updateCampaign,
} from './campaigns.service';

/**
 * Campaigns and their settings (spec 2 §7): company admins, plan flag `useCampaigns` (the declaration) and the
 * company's `campaignsEnabled` setting (checked first in every handler), both on the server.
 */
export const campaignsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['campaigns'];
  const config = route({ auth: 'admin', plan: 'useCampaigns' });

  r.get('/api/campaign-settings', { config, schema: { tags } }, async (request) => {
    await assertCampaignsEnabled(ctx, request.auth);

    return campaignSettingsToRows(await getCampaignSettings(ctx, request.auth));
  });
  r.post('/api/campaign-settings', { config, schema: { tags, body: ZCampaignSettingsBody } }, async (request) => {
    await assertCampaignsEnabled(ctx, request.auth);

    return campaignSettingsToRows(await saveCampaignSettings(ctx, request.auth, request.body));
  });

  r.get('/api/campaigns', { config, schema: { tags, querystring: ZCampaignListQuery } }, async (request) => {
    await assertCampaignsEnabled(ctx, request.auth);

    return listCampaigns(ctx, request.auth, request.query);
  });
  r.get('/api/campaigns/:id', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await assertCampaignsEnabled(ctx, request.auth);

    return getCampaign(ctx, request.auth, request.params.id);
  });
  r.post('/api/campaigns', { config, schema: { tags, body: ZCampaignBody } }, async (request, reply) => {
    await assertCampaignsEnabled(ctx, request.auth);

    return reply.status(201).send(await createCampaign(ctx, request.auth, request.body));
  });
  r.put(
    '/api/campaigns/:id',
    { config, schema: { tags, params: ZIdParams, body: ZCampaignUpdateBody } },
    async (request) => {
      await assertCampaignsEnabled(ctx, request.auth);

      return updateCampaign(ctx, request.auth, request.params.id, request.body);
    },
  );
  r.delete('/api/campaigns/:id', { config, schema: { tags, params: ZIdParams } }, async (request, reply) => {
    await assertCampaignsEnabled(ctx, request.auth);
    await deleteCampaign(ctx, request.auth, request.params.id);

    return reply.status(204).send();
  });
  r.post('/api/campaigns/:id/cancel', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await assertCampaignsEnabled(ctx, request.auth);

    return cancelCampaign(ctx, request.auth, request.params.id);
  });
  r.post('/api/campaigns/:id/restart', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await assertCampaignsEnabled(ctx, request.auth);

    return restartCampaignRoute(ctx, request.auth, request.params.id);
  });
  r.get(
    '/api/campaigns/:id/report',
    { config, schema: { tags, params: ZIdParams, querystring: ZCampaignReportQuery } },
    async (request) => {
      await assertCampaignsEnabled(ctx, request.auth);

      return campaignReport(ctx, request.auth, request.params.id, request.query);
    },
  );

  // the media: multipart parsing only in this context
  app.register(async (scope) => {
    await registerMultipart(scope, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024 },
      throwFileSizeLimit: true,
    });
    const m = scope.withTypeProvider<ZodTypeProvider>();
    m.post(
      '/api/campaigns/:id/media-upload',
      {
        config,
        bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
        schema: {
          tags,
          params: ZIdParams,
          consumes: ['multipart/form-data'],
          description: 'multipart: `file`; replaces an earlier file',
        },
      },
      async (request) => {
        await assertCampaignsEnabled(ctx, request.auth);

        return attachCampaignMedia(ctx, request.auth, request.params.id, () => readSingleUpload(request, 'file'));
      },
    );
    m.delete('/api/campaigns/:id/media-upload', { config, schema: { tags, params: ZIdParams } }, async (request) => {
      await assertCampaignsEnabled(ctx, request.auth);

      return detachCampaignMedia(ctx, request.auth, request.params.id);
    });
  });
};
