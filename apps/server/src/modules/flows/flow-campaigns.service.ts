import { events, rooms, type TFlowCampaign, type TFlowCampaignBody, type TFlowCampaignUpdateBody } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import {
  connectionOfCompany,
  deleteFlowCampaignRow,
  findFlow,
  findFlowCampaign,
  flowCampaignNameTaken,
  insertFlowCampaign,
  listFlowCampaigns,
  type TFlowCampaignRow,
  updateFlowCampaignRow,
} from './flows.repo';
import { invalidatePhrases } from './phrase-cache';

/** Phrase campaigns (`/flowcampaign`, spec 3 §2.6, §7): a whole message equal to the phrase starts the flow. */

const toDto = (row: TFlowCampaignRow): TFlowCampaign => ({
  id: row.id,
  companyId: row.companyId,
  userId: row.userId,
  name: row.name,
  flowId: row.flowId,
  whatsappId: row.whatsappId,
  phrase: row.phrase,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const announce = (ctx: TAppContext, companyId: number, payload: unknown) => {
  invalidatePhrases(companyId);
  ctx.realtime.to(rooms.admins(companyId), events.flowCampaign(companyId), payload);
};

const assertLinks = async (db: TDbOrTx, companyId: number, fields: { flowId?: number; whatsappId?: number }) => {
  if (fields.flowId !== undefined && !(await findFlow(db, companyId, fields.flowId))) {
    throw new AppError('ERR_NO_FLOW_FOUND', 'No such flow', [{ path: 'flowId', message: 'invalid' }]);
  }
  if (fields.whatsappId !== undefined && !(await connectionOfCompany(db, companyId, fields.whatsappId))) {
    throw new AppError('ERR_NO_WAPP_FOUND', 'No such connection', [{ path: 'whatsappId', message: 'invalid' }]);
  }
};

const duplicated = () =>
  new AppError('ERR_DUPLICATED_FLOW_CAMPAIGN', 'A phrase campaign with this name exists', [
    { path: 'name', message: 'duplicated' },
  ]);

export const listPhraseCampaigns = async (ctx: TAppContext, auth: TAuth) => ({
  flow: (await listFlowCampaigns(ctx.db, auth.companyId)).map(toDto),
});

export const getPhraseCampaign = async (ctx: TAppContext, auth: TAuth, id: number) => {
  const row = await findFlowCampaign(ctx.db, auth.companyId, id);
  if (!row) throw new AppError('ERR_NO_FLOW_CAMPAIGN_FOUND');

  return { details: toDto(row) };
};

export const createPhraseCampaign = async (ctx: TAppContext, auth: TAuth, body: TFlowCampaignBody) => {
  const row = await ctx.db.transaction(async (tx) => {
    await assertLinks(tx, auth.companyId, body);
    if (await flowCampaignNameTaken(tx, auth.companyId, body.name)) throw duplicated();
    return insertFlowCampaign(tx, {
      companyId: auth.companyId,
      userId: auth.userId,
      name: body.name,
      flowId: body.flowId,
      whatsappId: body.whatsappId,
      phrase: body.phrase,
      status: body.status,
    });
  });
  const record = toDto(row);
  announce(ctx, auth.companyId, { action: 'create', record });

  return record;
};

export const updatePhraseCampaign = async (ctx: TAppContext, auth: TAuth, body: TFlowCampaignUpdateBody) => {
  const row = await ctx.db.transaction(async (tx) => {
    if (!(await findFlowCampaign(tx, auth.companyId, body.id))) throw new AppError('ERR_NO_FLOW_CAMPAIGN_FOUND');
    await assertLinks(tx, auth.companyId, body);
    if (body.name !== undefined && (await flowCampaignNameTaken(tx, auth.companyId, body.name, body.id))) {
      throw duplicated();
    }
    return updateFlowCampaignRow(tx, auth.companyId, body.id, {
      name: body.name,
      flowId: body.flowId,
      whatsappId: body.whatsappId,
      phrase: body.phrase,
      status: body.status,
    });
  });
  if (!row) throw new AppError('ERR_NO_FLOW_CAMPAIGN_FOUND');
  const record = toDto(row);
  announce(ctx, auth.companyId, { action: 'update', record });

  return record;
};

export const deletePhraseCampaign = async (ctx: TAppContext, auth: TAuth, id: number) => {
  if (!(await deleteFlowCampaignRow(ctx.db, auth.companyId, id))) throw new AppError('ERR_NO_FLOW_CAMPAIGN_FOUND');
  announce(ctx, auth.companyId, { action: 'delete', id });

  return { message: 'ok' };
};
