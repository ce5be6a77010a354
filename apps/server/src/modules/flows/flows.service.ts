import {
  events,
  FLOW_PAGE_SIZE,
  flowGraphProblems,
  flowVariables,
  rooms,
  type TFlowCreateBody,
  type TFlowListAnswer,
  type TFlowListQuery,
  type TFlowSaveBody,
  type TFlowSummary,
  type TFlowUpdateBody,
  type TFlowWithDocument,
} from '@zelo/shared';
import type { TFlowDocument } from '../../db/schema/automation';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { pageAnswer, pageWindow } from '../../lib/paging';
import { loadConnection } from '../connections/connections.service';
import { maskDocument, sealDocument } from './flow-secrets';
import {
  connectionsUsingFlow,
  deleteFlowRow,
  findFlow,
  flowNameTaken,
  insertFlow,
  lockFlow,
  pageFlows,
  type TFlowRow,
  type TFlowSummaryRow,
  updateFlow,
} from './flows.repo';
import { invalidatePhrases } from './phrase-cache';
import { isUniqueViolation } from '../../db/pg-errors';

/** Flows (spec 3 §2.7, §7): the list, create, rename / active flag, duplicate, delete, and the document. */

const toSummary = (row: TFlowSummaryRow): TFlowSummary => ({
  id: row.id,
  companyId: row.companyId,
  userId: row.userId,
  name: row.name,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const withDocument = (ctx: TAppContext, row: TFlowRow): TFlowWithDocument => ({
  ...toSummary(row),
  flow: maskDocument(ctx.config, row.flow ?? null),
  variables: row.variables ?? [],
});

const announce = (ctx: TAppContext, companyId: number, payload: unknown) =>
  ctx.realtime.to(rooms.admins(companyId), events.flowBuilder(companyId), payload);

const duplicated = () =>
  new AppError('ERR_DUPLICATED_FLOW', 'A flow with this name exists', [{ path: 'name', message: 'duplicated' }]);

export const loadFlow = async (ctx: TAppContext, companyId: number, id: number) => {
  const row = await findFlow(ctx.db, companyId, id);
  if (!row) throw new AppError('ERR_NO_FLOW_FOUND');

  return row;
};

export const listFlows = async (ctx: TAppContext, auth: TAuth, query: TFlowListQuery): Promise<TFlowListAnswer> => {
  const { limit, offset } = pageWindow(query.pageNumber, FLOW_PAGE_SIZE);
  const { rows, total } = await pageFlows(ctx.db, auth.companyId, query.searchParam, limit, offset);
  const page = pageAnswer(rows.map(toSummary), total, query.pageNumber, FLOW_PAGE_SIZE);

  return { flows: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getFlow = async (ctx: TAppContext, auth: TAuth, id: number) => ({
  flow: withDocument(ctx, await loadFlow(ctx, auth.companyId, id)),
});

export const createFlow = async (ctx: TAppContext, auth: TAuth, body: TFlowCreateBody) => {
  const row = await ctx.db.transaction(async (tx) => {
    if (await flowNameTaken(tx, auth.companyId, body.name)) throw duplicated();
    return insertFlow(tx, {
      companyId: auth.companyId,
      userId: auth.userId,
      name: body.name,
      active: body.active ?? true,
      flow: null,
      variables: [],
    });
  });
  const flow = toSummary(row);
  announce(ctx, auth.companyId, { action: 'create', flow });

  return flow;
};

export const updateFlowMeta = async (ctx: TAppContext, auth: TAuth, body: TFlowUpdateBody) => {
  const row = await ctx.db.transaction(async (tx) => {
    if (!(await lockFlow(tx, auth.companyId, body.flowId))) throw new AppError('ERR_NO_FLOW_FOUND');
    if (body.name !== undefined && (await flowNameTaken(tx, auth.companyId, body.name, body.flowId)))
      throw duplicated();
    return updateFlow(tx, auth.companyId, body.flowId, { name: body.name, active: body.active });
  });
  if (!row) throw new AppError('ERR_NO_FLOW_FOUND');
  invalidatePhrases(auth.companyId);
  const flow = toSummary(row);
  announce(ctx, auth.companyId, { action: 'update', flow });

  return flow;
};

/** "<name> - cópia", then "<name> - cópia 2", … within the 50 characters */
const copyName = async (ctx: TAppContext, companyId: number, name: string) => {
  for (let n = 1; n < 1000; n++) {
    const suffix = n === 1 ? ' - cópia' : ` - cópia ${n}`;
    const candidate = name.slice(0, 50 - suffix.length) + suffix;
    if (!(await flowNameTaken(ctx.db, companyId, candidate))) return candidate;
  }
  throw duplicated();
};

export const duplicateFlow = async (ctx: TAppContext, auth: TAuth, flowId: number) => {
  const source = await loadFlow(ctx, auth.companyId, flowId);
  const insertCopy = async () =>
    insertFlow(ctx.db, {
      companyId: auth.companyId,
      userId: auth.userId,
      name: await copyName(ctx, auth.companyId, source.name),
      active: source.active,
      flow: source.flow ? structuredClone(source.flow) : null,
      variables: [...(source.variables ?? [])],
    });
  // two duplicates at once may find the same free copy name: the loser looks for the next one
  let row: Awaited<ReturnType<typeof insertFlow>> | undefined;
  for (let attempt = 1; !row; attempt += 1) {
    try {
      row = await insertCopy();
    } catch (err) {
      if (attempt >= 10 || !isUniqueViolation(err, 'flow_builders_company_name_unique')) throw err;
    }
  }
  const flow = toSummary(row);
  announce(ctx, auth.companyId, { action: 'create', flow });

  return flow;
};

export const deleteFlow = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const connections = await connectionsUsingFlow(ctx.db, auth.companyId, id);
  if (!(await deleteFlowRow(ctx.db, auth.companyId, id))) throw new AppError('ERR_NO_FLOW_FOUND');
  invalidatePhrases(auth.companyId);
  announce(ctx, auth.companyId, { action: 'delete', flowId: id });
  for (const connectionId of connections) {
    const whatsapp = await loadConnection(ctx.db, auth.companyId, connectionId).catch(() => null);
    if (whatsapp)
      ctx.realtime.toCompany(auth.companyId, events.whatsapp(auth.companyId), { action: 'update', whatsapp });
  }

  return { message: 'ok' };
};

/** POST /flowbuilder/flow: the editor's document, checked, its secrets sealed, its variables collected */
export const saveFlowDocument = async (ctx: TAppContext, auth: TAuth, body: TFlowSaveBody) => {
  const doc = { nodes: body.nodes, connections: body.connections } as TFlowDocument & typeof body;
  const problems = flowGraphProblems({ nodes: body.nodes, connections: body.connections });
  if (problems.length > 0) {
    throw new AppError(
      problems[0]!.code,
      problems[0]!.message,
      problems.slice(0, 20).map((p) => ({ path: p.path, message: 'invalid' })),
    );
  }
  const row = await ctx.db.transaction(async (tx) => {
    const current = await lockFlow(tx, auth.companyId, body.idFlow);
    if (!current) throw new AppError('ERR_NO_FLOW_FOUND');
    const sealed = sealDocument(ctx.config, doc as unknown as TFlowDocument, current.flow ?? null);
    return updateFlow(tx, auth.companyId, body.idFlow, {
      flow: sealed,
      variables: flowVariables({ nodes: body.nodes }),
    });
  });
  if (!row) throw new AppError('ERR_NO_FLOW_FOUND');
  announce(ctx, auth.companyId, { action: 'update', flow: toSummary(row) });

  return { flow: withDocument(ctx, row) };
};
