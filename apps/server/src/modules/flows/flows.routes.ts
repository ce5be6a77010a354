import {
  ZFlowCampaignBody,
  ZFlowCampaignUpdateBody,
  ZFlowCreateBody,
  ZFlowDuplicateBody,
  ZFlowListQuery,
  ZFlowSaveBody,
  ZFlowTestRunBody,
  ZFlowUpdateBody,
  ZIdParams,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import { registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import { assertCampaignsEnabled } from '../campaigns/campaigns.service';
import {
  createPhraseCampaign,
  deletePhraseCampaign,
  getPhraseCampaign,
  listPhraseCampaigns,
  updatePhraseCampaign,
} from './flow-campaigns.service';
import { FLOW_UPLOAD_MAX, readFlowUploads, storeFlowUploads } from './flow-uploads';
import {
  createFlow,
  deleteFlow,
  duplicateFlow,
  getFlow,
  listFlows,
  saveFlowDocument,
  updateFlowMeta,
} from './flows.service';
import { endTestRun, getRun, startTestRun } from './test-run';

/**
 * The flow builder's routes (spec 3 §7, issue 14 items 3, 5, 6): company admins, gated like campaigns (plan
 * flag `useCampaigns` in the declaration, the company's `campaignsEnabled` setting in every handler). The phrase
 * delete needs 'contacts-page:deleteContact', an admin permission (spec 1 §6): the admin declaration covers it.
 */
export const flowsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['flows'];
  const config = route({ auth: 'admin', plan: 'useCampaigns' });
  const gate = (request: { auth: Parameters<typeof assertCampaignsEnabled>[1] }) =>
    assertCampaignsEnabled(ctx, request.auth);

  r.get('/api/flowbuilder', { config, schema: { tags, querystring: ZFlowListQuery } }, async (request) => {
    await gate(request);
    return listFlows(ctx, request.auth, request.query);
  });
  r.get('/api/flowbuilder/:id', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await gate(request);
    return getFlow(ctx, request.auth, request.params.id);
  });
  r.post('/api/flowbuilder', { config, schema: { tags, body: ZFlowCreateBody } }, async (request, reply) => {
    await gate(request);
    return reply.status(201).send(await createFlow(ctx, request.auth, request.body));
  });
  r.put('/api/flowbuilder', { config, schema: { tags, body: ZFlowUpdateBody } }, async (request) => {
    await gate(request);
    return updateFlowMeta(ctx, request.auth, request.body);
  });
  r.post(
    '/api/flowbuilder/duplicate',
    { config, schema: { tags, body: ZFlowDuplicateBody } },
    async (request, reply) => {
      await gate(request);
      return reply.status(201).send(await duplicateFlow(ctx, request.auth, request.body.flowId));
    },
  );
  r.delete('/api/flowbuilder/:id', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await gate(request);
    return deleteFlow(ctx, request.auth, request.params.id);
  });
  r.get('/api/flowbuilder/flow/:id', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await gate(request);
    return getFlow(ctx, request.auth, request.params.id);
  });
  r.post(
    '/api/flowbuilder/flow',
    { config, bodyLimit: 4 * 1024 * 1024, schema: { tags, body: ZFlowSaveBody } },
    async (request) => {
      await gate(request);
      return saveFlowDocument(ctx, request.auth, request.body);
    },
  );
  r.post(
    '/api/flowbuilder/:id/test-run',
    { config, schema: { tags, params: ZIdParams, body: ZFlowTestRunBody } },
    async (request, reply) => {
      await gate(request);
      return reply.status(201).send(await startTestRun(ctx, request.auth, request.params.id, request.body ?? {}));
    },
  );
  r.get('/api/flowbuilder/run/:id', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await gate(request);
    return getRun(ctx, request.auth, request.params.id);
  });
  r.delete('/api/flowbuilder/run/:id', { config, schema: { tags, params: ZIdParams } }, async (request, reply) => {
    await gate(request);
    await endTestRun(ctx, request.auth, request.params.id);
    return reply.status(204).send();
  });

  // phrase campaigns
  r.get('/api/flowcampaign', { config, schema: { tags } }, async (request) => {
    await gate(request);
    return listPhraseCampaigns(ctx, request.auth);
  });
  r.get('/api/flowcampaign/:id', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await gate(request);
    return getPhraseCampaign(ctx, request.auth, request.params.id);
  });
  r.post('/api/flowcampaign', { config, schema: { tags, body: ZFlowCampaignBody } }, async (request, reply) => {
    await gate(request);
    return reply.status(201).send(await createPhraseCampaign(ctx, request.auth, request.body));
  });
  r.put('/api/flowcampaign', { config, schema: { tags, body: ZFlowCampaignUpdateBody } }, async (request) => {
    await gate(request);
    return updatePhraseCampaign(ctx, request.auth, request.body);
  });
  r.delete('/api/flowcampaign/:id', { config, schema: { tags, params: ZIdParams } }, async (request) => {
    await gate(request);
    return deletePhraseCampaign(ctx, request.auth, request.params.id);
  });

  // uploads: multipart parsing only in this context
  app.register(async (scope) => {
    await registerMultipart(scope, {
      limits: { fileSize: FLOW_UPLOAD_MAX, files: 20, fields: 20, fieldSize: 4096 },
      throwFileSizeLimit: true,
    });
    const m = scope.withTypeProvider<ZodTypeProvider>();
    const upload = (path: string, kinds: Parameters<typeof storeFlowUploads>[3], all: boolean) =>
      m.post(
        path,
        {
          config,
          bodyLimit: FLOW_UPLOAD_MAX * (all ? 20 : 1) + 64 * 1024,
          schema: { tags, consumes: ['multipart/form-data'], description: 'multipart: `medias` (and `flowId`)' },
        },
        async (request) => {
          await gate(request);
          const input = await readFlowUploads(request);
          const files = all ? input.files : input.files.slice(0, 1);
          const stored = await storeFlowUploads(ctx, request.auth, { ...input, files }, kinds);
          return all ? stored.map((s) => s.name) : stored[0];
        },
      );
    upload('/api/flowbuilder/img', ['image'], false);
    // the ancestor's video dialog posts its MP4 here too
    upload('/api/flowbuilder/audio', ['audio', 'video'], false);
    upload('/api/flowbuilder/video', ['video'], false);
    upload('/api/flowbuilder/content', ['image', 'audio', 'video'], true);
  });
};
