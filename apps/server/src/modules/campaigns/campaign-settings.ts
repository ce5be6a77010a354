import {
  CAMPAIGN_SETTINGS_DEFAULTS,
  events,
  rooms,
  type TCampaignSettings,
  type TCampaignSettingsInput,
} from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import type { TAppContext } from '../../lib/context';
import { listCampaignSettings, upsertCampaignSetting } from './campaigns.repo';

const asNumber = (value: unknown, fallback: number) => {
  const n = typeof value === 'string' ? Number(value) : value;

  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : fallback;
};

const asVariables = (value: unknown): TCampaignSettings['variables'] => {
  // rows written by an ancestor import hold the JSON text
  const list = typeof value === 'string' ? (() => JSON.parse(value) as unknown)() : value;
  if (!Array.isArray(list)) return [];

  return list
    .filter((v): v is { key: unknown; value: unknown } => Boolean(v) && typeof v === 'object')
    .map((v) => ({ key: String(v.key ?? ''), value: String(v.value ?? '') }))
    .filter((v) => v.key);
};

/** the company's campaign settings, each with its default when never saved */
export const readCampaignSettings = async (db: TDbOrTx, companyId: number): Promise<TCampaignSettings> => {
  const stored = new Map((await listCampaignSettings(db, companyId)).map((row) => [row.key, row.value]));
  const d = CAMPAIGN_SETTINGS_DEFAULTS;
  let variables: TCampaignSettings['variables'] = [];
  try {
    variables = asVariables(stored.get('variables'));
  } catch {
    variables = [];
  }

  return {
    messageInterval: asNumber(stored.get('messageInterval'), d.messageInterval),
    longerIntervalAfter: asNumber(stored.get('longerIntervalAfter'), d.longerIntervalAfter),
    greaterInterval: asNumber(stored.get('greaterInterval'), d.greaterInterval),
    variables,
  };
};

export const getCampaignSettings = (ctx: TAppContext, auth: TAuth) => readCampaignSettings(ctx.db, auth.companyId);

/** saves the fields given (each a key of its own, as the ancestor stores them); answers every setting */
export const saveCampaignSettings = async (ctx: TAppContext, auth: TAuth, input: TCampaignSettingsInput) => {
  const saved = await ctx.db.transaction(async (tx) => {
    for (const key of ['messageInterval', 'longerIntervalAfter', 'greaterInterval', 'variables'] as const) {
      if (input[key] !== undefined) await upsertCampaignSetting(tx, auth.companyId, key, input[key]);
    }

    return readCampaignSettings(tx, auth.companyId);
  });
  ctx.realtime.to(rooms.admins(auth.companyId), events.campaignSettings(auth.companyId), {
    action: 'update',
    record: saved,
  });

  return saved;
};
