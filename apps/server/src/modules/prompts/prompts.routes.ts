import {
  AI_KEY_HEADER,
  ZIdParams,
  ZListQuery,
  ZMessageResponse,
  ZPrompt,
  ZPromptBody,
  ZPromptList,
  ZPromptModels,
  ZPromptModelsQuery,
  ZPromptUpdateBody,
} from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/declare';
import type { TAppContext } from '../../lib/context';
import { promptModels } from './prompt-models';
import { createPrompt, deletePrompt, getPrompt, listPrompts, updatePrompt } from './prompts.service';

/**
 * AI prompts (spec 3 §2.3, §7). The list answers every user of the company (the connection and queue
 * dialogs read it) and is empty without the plan's `useOpenAi`; the rest is for admins of such a plan.
 */
export const promptsRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['prompts'];
  const admin = route({ auth: 'admin', plan: 'useOpenAi' });
  r.get(
    '/api/prompt',
    { config: route({ auth: 'user' }), schema: { tags, querystring: ZListQuery, response: { 200: ZPromptList } } },
    (request) => listPrompts(ctx, request.auth, request.query),
  );
  r.get(
    '/api/prompt/models',
    {
      config: admin,
      schema: {
        tags,
        querystring: ZPromptModelsQuery,
        response: { 200: ZPromptModels },
        description: `a key typed in the form (not yet saved) goes in the \`${AI_KEY_HEADER}\` header`,
      },
    },
    (request) => {
      const typed = request.headers[AI_KEY_HEADER];

      return promptModels(ctx, request.auth, request.query, typeof typed === 'string' ? typed : undefined);
    },
  );
  r.get(
    '/api/prompt/:id',
    { config: admin, schema: { tags, params: ZIdParams, response: { 200: ZPrompt } } },
    (request) => getPrompt(ctx, request.auth, request.params.id),
  );
  r.post('/api/prompt', { config: admin, schema: { tags, body: ZPromptBody, response: { 200: ZPrompt } } }, (request) =>
    createPrompt(ctx, request.auth, request.body),
  );
  r.put(
    '/api/prompt/:id',
    { config: admin, schema: { tags, params: ZIdParams, body: ZPromptUpdateBody, response: { 200: ZPrompt } } },
    (request) => updatePrompt(ctx, request.auth, request.params.id, request.body),
  );
  r.delete(
    '/api/prompt/:id',
    { config: admin, schema: { tags, params: ZIdParams, response: { 200: ZMessageResponse } } },
    (request) => deletePrompt(ctx, request.auth, request.params.id),
  );
};
