import {
  events,
  promptModelId,
  rooms,
  type TListQuery,
  type TPrompt,
  type TPromptEvent,
  type TPromptInput,
  type TPromptUpdateInput,
} from '@zelo/shared';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { assertOutboundUrl } from '../../lib/outbound';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { assertSecretRetyped } from '../../lib/secret-retype';
import { isMaskedSecret, keepOrSeal, maskStoredSecret, sealSecret } from '../../lib/secrets';
import {
  deletePromptRow,
  findPrompt,
  insertPrompt,
  pagePrompts,
  queueInCompany,
  type TPromptInsert,
  type TPromptWithQueue,
  updatePromptRow,
} from './prompts.repo';
import { isUniqueViolation } from '../../db/pg-errors';

/** the API's prompt: both keys masked, never sent in full */
export const toPrompt = (row: TPromptWithQueue): TPrompt => ({
  id: row.id,
  name: row.name,
  prompt: row.prompt,
  model: promptModelId(row.model),
  maxTokens: row.maxTokens,
  temperature: Number(row.temperature),
  apiKey: maskStoredSecret(row.apiKey),
  baseUrl: row.baseUrl,
  queueId: row.queueId,
  queue: row.queue,
  maxMessages: row.maxMessages,
  voice: row.voice,
  voiceKey: maskStoredSecret(row.voiceKey),
  voiceRegion: row.voiceRegion,
  promptTokens: row.promptTokens,
  completionTokens: row.completionTokens,
  totalTokens: row.totalTokens,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** prompts hold keys (masked) and are managed by admins: their events go to the admins' room */
const announce = (ctx: TAppContext, companyId: number, payload: TPromptEvent) =>
  ctx.realtime.to([rooms.admins(companyId)], events.prompt(companyId), payload);

/** GET /prompt: every user of the company reads it (connection and queue dialogs); without the plan, nothing */
export const listPrompts = async (ctx: TAppContext, auth: TAuth, query: TListQuery) => {
  if (!auth.planFlags.useOpenAi) return { prompts: [], count: 0, hasMore: false };
  const { limit, offset } = pageWindow(query.pageNumber);
  const { rows, total } = await pagePrompts(ctx.db, auth.companyId, query.searchParam, limit, offset);
  const page = pageAnswer(rows.map(toPrompt), total, query.pageNumber);

  return { prompts: page.rows, count: page.count, hasMore: page.hasMore };
};

const load = async (ctx: TAppContext, companyId: number, id: number) => {
  const row = await findPrompt(ctx.db, companyId, id);
  if (!row) throw new AppError('ERR_NO_PROMPT_FOUND');

  return row;
};

export const getPrompt = async (ctx: TAppContext, auth: TAuth, id: number) =>
  toPrompt(await load(ctx, auth.companyId, id));

const checkQueue = async (ctx: TAppContext, companyId: number, queueId: number | undefined) => {
  if (queueId !== undefined && !(await queueInCompany(ctx.db, companyId, queueId))) {
    throw new AppError('ERR_NO_QUEUE_FOUND', 'No queue with this id', [{ path: 'queueId', message: 'invalid' }]);
  }
};

/** the base URL must pass the outbound guard when saved (it is checked again on every call) */
const checkBaseUrl = async (baseUrl: string | null | undefined) => {
  if (baseUrl) await assertOutboundUrl(baseUrl);
};

const duplicatedOr = (err: unknown) => {
  if (isUniqueViolation(err)) {
    return new AppError('ERR_DUPLICATED_PROMPT', 'A prompt with this name exists', [
      { path: 'name', message: 'duplicated' },
    ]);
  }

  return err;
};

export const createPrompt = async (ctx: TAppContext, auth: TAuth, body: TPromptInput) => {
  const companyId = auth.companyId;
  await checkQueue(ctx, companyId, body.queueId);
  await checkBaseUrl(body.baseUrl);
  const values: TPromptInsert = {
    companyId,
    name: body.name,
    prompt: body.prompt,
    model: body.model,
    maxTokens: body.maxTokens,
    temperature: body.temperature,
    maxMessages: body.maxMessages,
    queueId: body.queueId,
    baseUrl: body.baseUrl ?? null,
    apiKey: sealSecret(body.apiKey),
    voice: body.voice,
    voiceKey: sealSecret(body.voiceKey ?? ''),
    voiceRegion: body.voiceRegion ?? '',
  };
  const row = await insertPrompt(ctx.db, values).catch((err: unknown) => {
    throw duplicatedOr(err);
  });
  const prompt = toPrompt({ ...row, queue: (await load(ctx, companyId, row.id)).queue });
  announce(ctx, companyId, { action: 'create', prompt });

  return prompt;
};

export const updatePrompt = async (ctx: TAppContext, auth: TAuth, id: number, body: TPromptUpdateInput) => {
  const companyId = auth.companyId;
  const before = await load(ctx, companyId, id);
  await checkQueue(ctx, companyId, body.queueId);
  await checkBaseUrl(body.baseUrl);
  // the stored key goes only where it went: a new base URL needs the key typed again
  assertSecretRetyped({
    before: before.baseUrl,
    after: body.baseUrl === undefined ? before.baseUrl : body.baseUrl,
    hasStored: !!before.apiKey,
    keepsStored: body.apiKey === undefined || isMaskedSecret(body.apiKey),
    path: 'apiKey',
  });
  const apiKey = keepOrSeal(body.apiKey, before.apiKey);
  if (!apiKey)
    throw new AppError('ERR_VALIDATION', 'The API key is required', [{ path: 'apiKey', message: 'required' }]);
  const patch: Partial<TPromptInsert> = {
    name: body.name,
    prompt: body.prompt,
    model: body.model,
    maxTokens: body.maxTokens,
    temperature: body.temperature,
    maxMessages: body.maxMessages,
    queueId: body.queueId,
    baseUrl: body.baseUrl,
    voice: body.voice,
    voiceRegion: body.voiceRegion,
    apiKey: apiKey === before.apiKey ? undefined : apiKey,
    voiceKey: body.voiceKey === undefined ? undefined : keepOrSeal(body.voiceKey, before.voiceKey),
    updatedAt: new Date(),
  };
  const row = await updatePromptRow(ctx.db, companyId, id, patch).catch((err: unknown) => {
    throw duplicatedOr(err);
  });
  if (!row) throw new AppError('ERR_NO_PROMPT_FOUND');
  const prompt = toPrompt({ ...row, queue: (await load(ctx, companyId, id)).queue });
  announce(ctx, companyId, { action: 'update', prompt });

  return prompt;
};

export const deletePrompt = async (ctx: TAppContext, auth: TAuth, id: number) => {
  // connections, queues and tickets that used it lose it (set null): their customers are no longer answered by it
  if (!(await deletePromptRow(ctx.db, auth.companyId, id))) throw new AppError('ERR_NO_PROMPT_FOUND');
  announce(ctx, auth.companyId, { action: 'delete', promptId: id });

  return { message: 'Prompt deleted' };
};
