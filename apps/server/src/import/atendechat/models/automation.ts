/**
 * Flows (their React-Flow JSON as the ancestor stores it), queue integrations (Dialogflow's service account
 * sealed like any tenant secret; n8n / webhook deliveries get a new sealed signing key, as Zelo's own do),
 * prompts (API key sealed), phrase campaigns and the welcome / no-phrase defaults. Rules: a row of no
 * imported company is skipped; a flow whose JSON is not `{nodes, connections}` is kept empty; an integration
 * of a type Zelo does not run is skipped; a prompt's temperature is held within 0..2.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { flowBuilders, flowCampaigns, flowDefaults, prompts, queueIntegrations } from '../../../db/schema/automation';
import { sealSecret } from '../../../lib/secrets';
import { bool, cut, idOrNull, int, json, nameOr } from '../clean';
import { insertRows } from '../insert';
import type { TMediaCopier } from '../media';
import { idsOf, ownersOf, type TImportState, type TModel, takenOf } from '../model';
import type { TSourceRow } from '../source';
import { restoreKeys, restoreOwned, rowsOf } from './_restore';
import { stamps } from './contacts';
import { uniqueName } from './core';

const companyIn = (state: TImportState, value: unknown) => {
  const id = idOrNull(value);

  return id !== null && idsOf(state, 'companies').has(id) ? id : null;
};

/** an id of `model` imported for this company, else null */
export const ownId = (state: TImportState, model: string, id: unknown, companyId: number) => {
  const n = idOrNull(id);

  return n !== null && ownersOf(state, model).get(n) === companyId ? n : null;
};

const restoreNamed =
  (model: string, table: string) => async (db: Parameters<NonNullable<TModel['restore']>>[0], state: TImportState) => {
    await restoreOwned(model, table)(db, state);
    for (const r of await rowsOf<{ c: number; k: string }>(
      db,
      `select company_id as c, lower(name) as k from ${table}`,
    )) {
      takenOf(state, model).add(`${r.c}:${r.k}`);
    }
  };

const accept = (state: TImportState, model: string, id: number, companyId: number) => {
  idsOf(state, model).add(id);
  ownersOf(state, model).set(id, companyId);
};

const MEDIA_NODES = new Set(['img', 'audio', 'video']);

/**
 * The files a flow sends (an img / audio / video node's `data.url`, a content block's img / audio / video
 * element's `value`: file names in the ancestor's public/) copied in, and the flow pointed at the stored names
 * the engine reads; a file that cannot be copied keeps its name and is reported.
 */
const copyFlowMedia = async (doc: { nodes: unknown[] }, media: TMediaCopier, adjusted: string[]) => {
  const copy = async (name: unknown) => {
    const copied = await media(name);
    if (!copied) return undefined;
    if ('problem' in copied) {
      adjusted.push(`flow ${copied.problem}`);

      return undefined;
    }

    return copied.stored;
  };
  for (const node of doc.nodes as { type?: string; data?: Record<string, unknown> }[]) {
    const data = node?.data;
    if (!data || typeof data !== 'object') continue;
    if (MEDIA_NODES.has(String(node.type)) && typeof data.url === 'string') {
      data.url = (await copy(data.url)) ?? data.url;
    }
    if (node.type === 'singleBlock' && Array.isArray(data.elements)) {
      for (const el of data.elements as { type?: string; value?: unknown }[]) {
        if (el && MEDIA_NODES.has(String(el.type)) && typeof el.value === 'string') {
          el.value = (await copy(el.value)) ?? el.value;
        }
      }
    }
  }
};

type TFlow = typeof flowBuilders.$inferInsert;
export const flowsModel: TModel<TFlow> = {
  name: 'flows',
  table: 'FlowBuilders',
  key: ['id'],
  required: ['id', 'user_id', 'name', 'company_id'],
  optional: ['active', 'flow', 'createdAt', 'updatedAt', 'variables'],
  batch: 100,
  restore: restoreNamed('flows', 'flow_builders'),
  map: async (r, { state, media }) => {
    const companyId = companyIn(state, r.company_id);
    if (companyId === null) return { skip: 'flow of no imported company' };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(takenOf(state, 'flows'), r.name, id, 50, `Flow ${id}`, `${companyId}:`);
    const doc = json(r.flow) as { nodes?: unknown; connections?: unknown } | undefined;
    let flow: TFlow['flow'] = null;
    if (doc && Array.isArray(doc.nodes) && Array.isArray(doc.connections)) {
      await copyFlowMedia(doc as { nodes: unknown[] }, media, adjusted);
      flow = doc as TFlow['flow'];
    } else if (r.flow !== null && r.flow !== undefined) adjusted.push('flow JSON not {nodes, connections}: kept empty');
    const vars = json(r.variables);
    const userId = idOrNull(r.user_id);
    accept(state, 'flows', id, companyId);

    return {
      adjusted,
      row: {
        id,
        companyId,
        userId: userId !== null && ownersOf(state, 'users').get(userId) === companyId ? userId : null,
        name,
        active: bool(r.active, true),
        flow,
        variables: Array.isArray(vars) ? vars.filter((v) => typeof v === 'string').map((v) => cut(v, 100)) : [],
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, flowBuilders, rows);
    return undefined;
  },
};

const INTEGRATION_TYPES = new Set(['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder']);

type TIntegration = typeof queueIntegrations.$inferInsert;
export const integrationsModel: TModel<TIntegration> = {
  name: 'queue integrations',
  table: 'QueueIntegrations',
  key: ['id'],
  required: ['id', 'type', 'name', 'companyId'],
  optional: [
    'projectName',
    'jsonContent',
    'language',
    'createdAt',
    'updatedAt',
    'urlN8N',
    'typebotSlug',
    'typebotExpires',
    'typebotKeywordFinish',
    'typebotUnknownMessage',
    'typebotDelayMessage',
    'typebotRestartMessage',
    'typebotKeywordRestart',
  ],
  restore: restoreNamed('queue integrations', 'queue_integrations'),
  map: (r, { state }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'integration of no imported company' };
    const type = String(r.type ?? '').toLowerCase();
    if (!INTEGRATION_TYPES.has(type)) return { skip: `integration type "${cut(r.type, 20)}" unknown to Zelo` };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(
      takenOf(state, 'queue integrations'),
      r.name,
      id,
      50,
      `Integration ${id}`,
      `${companyId}:`,
    );
    if (type === 'flowbuilder') adjusted.push('flowbuilder integration: choose its flow in Zelo');
    accept(state, 'queue integrations', id, companyId);

    return {
      adjusted,
      row: {
        id,
        companyId,
        type,
        name,
        projectName: cut(r.projectName, 100),
        jsonContent: type === 'dialogflow' ? sealSecret(cut(r.jsonContent, 100_000).trim()) : '',
        language: cut(r.language, 10) || 'pt-BR',
        urlN8N: type === 'dialogflow' || type === 'flowbuilder' ? '' : cut(r.urlN8N, 500),
        typebotSlug: cut(r.typebotSlug, 255),
        typebotExpires: int(r.typebotExpires, 1),
        typebotKeywordFinish: cut(r.typebotKeywordFinish, 100),
        typebotKeywordRestart: cut(r.typebotKeywordRestart, 100),
        typebotRestartMessage: cut(r.typebotRestartMessage, 100_000),
        typebotUnknownMessage: cut(r.typebotUnknownMessage, 100_000),
        typebotDelayMessage: int(r.typebotDelayMessage, 1000),
        webhookSecret: type === 'n8n' || type === 'webhook' ? sealSecret(randomBytes(24).toString('base64url')) : '',
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, queueIntegrations, rows);
    return undefined;
  },
};

type TPrompt = typeof prompts.$inferInsert;
export const promptsModel: TModel<TPrompt> = {
  name: 'prompts',
  table: 'Prompts',
  key: ['id'],
  required: ['id', 'name', 'apiKey', 'prompt', 'companyId'],
  optional: [
    'maxTokens',
    'maxMessages',
    'temperature',
    'promptTokens',
    'completionTokens',
    'totalTokens',
    'createdAt',
    'updatedAt',
    'model',
    'queueId',
  ],
  restore: restoreNamed('prompts', 'prompts'),
  map: (r, { state }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'prompt of no imported company' };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(takenOf(state, 'prompts'), r.name, id, 100, `Prompt ${id}`, `${companyId}:`);
    let temperature = Number(r.temperature ?? 1);
    if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
      temperature = Math.min(2, Math.max(0, Number.isFinite(temperature) ? temperature : 1));
      adjusted.push('temperature held within 0..2');
    }
    accept(state, 'prompts', id, companyId);

    return {
      adjusted,
      row: {
        id,
        companyId,
        name,
        prompt: cut(r.prompt, 100_000),
        apiKey: sealSecret(cut(r.apiKey, 1000).trim()),
        model: cut(r.model, 100) || 'gpt-3.5-turbo-1106',
        maxTokens: int(r.maxTokens, 100, 1),
        temperature: Math.round(temperature * 100) / 100,
        maxMessages: int(r.maxMessages, 10),
        promptTokens: int(r.promptTokens, 0),
        completionTokens: int(r.completionTokens, 0),
        totalTokens: int(r.totalTokens, 0),
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, prompts, rows);
    return undefined;
  },
};

/** second pass over Prompts: the queue a prompt hands over to, once queues exist */
export const promptQueuesModel: TModel<{ id: number; queueId: number }> = {
  name: 'prompts handover queue',
  table: 'Prompts',
  key: ['id'],
  required: ['id', 'queueId'],
  where: '"queueId" is not null',
  map: (r, { state }) => {
    const id = idOrNull(r.id)!;
    const companyId = ownersOf(state, 'prompts').get(id);
    if (companyId === undefined) return { skip: 'prompt not imported' };
    const queueId = ownId(state, 'queues', r.queueId, companyId);
    if (queueId === null) return { skip: 'handover queue not imported' };

    return { row: { id, queueId } };
  },
  write: async (tx, rows) => {
    await tx.execute(sql`
      update prompts p set queue_id = v.q from json_to_recordset(${JSON.stringify(rows.map((r) => ({ i: r.id, q: r.queueId })))}::json) as v(i int, q int)
      where p.id = v.i`);
    return undefined;
  },
};

type TPhrase = typeof flowCampaigns.$inferInsert;
export const phrasesModel: TModel<TPhrase> = {
  name: 'phrase campaigns',
  table: 'FlowCampaigns',
  key: ['id'],
  required: ['id', 'companyId', 'name', 'flowId', 'phrase'],
  optional: ['userId', 'status', 'createdAt', 'updatedAt', 'whatsappId'],
  restore: restoreKeys('phrases', "select company_id || ':' || lower(name) as k from flow_campaigns"),
  map: (r, { state }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'phrase of no imported company' };
    const flowId = ownId(state, 'flows', r.flowId, companyId);
    if (flowId === null) return { skip: 'phrase of no imported flow' };
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(takenOf(state, 'phrases'), r.name, id, 50, `Phrase ${id}`, `${companyId}:`);

    return {
      adjusted,
      row: {
        id,
        companyId,
        userId: ownId(state, 'users', r.userId, companyId),
        name,
        flowId,
        whatsappId: ownId(state, 'connections', r.whatsappId, companyId),
        phrase: nameOr(r.phrase, 255, name),
        status: bool(r.status, true),
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, flowCampaigns, rows);
    return undefined;
  },
};

type TDefault = typeof flowDefaults.$inferInsert;
export const flowDefaultsModel: TModel<TDefault> = {
  name: 'flow defaults',
  table: 'FlowDefaults',
  key: ['id'],
  required: ['id', 'companyId'],
  optional: ['userId', 'flowIdWelcome', 'flowIdNotPhrase', 'createdAt', 'updatedAt'],
  restore: restoreKeys('flow defaults', 'select company_id::text as k from flow_defaults'),
  map: (r: TSourceRow, { state }) => {
    const companyId = companyIn(state, r.companyId);
    if (companyId === null) return { skip: 'defaults of no imported company' };
    const taken = takenOf(state, 'flow defaults');
    if (taken.has(String(companyId))) return { skip: 'second defaults row of a company (first kept)' };
    taken.add(String(companyId));

    return {
      row: {
        id: idOrNull(r.id)!,
        companyId,
        userId: ownId(state, 'users', r.userId, companyId),
        flowIdWelcome: ownId(state, 'flows', r.flowIdWelcome, companyId),
        flowIdNotPhrase: ownId(state, 'flows', r.flowIdNotPhrase, companyId),
        ...stamps(r),
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, flowDefaults, rows);
    return undefined;
  },
};
