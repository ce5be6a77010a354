import { markOpenTicketsDirty } from '../sla';
import {
  events,
  isSettingKey,
  rooms,
  SECRET_SETTING_KEYS,
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  type TSetting,
  type TSettingKey,
} from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { listAllSettingRows, listCompanySettings, upsertSetting } from './settings.repo';

const MASK = '********';
const SLA_SETTING_KEYS: string[] = ['slaFirstResponseMinutes', 'slaResolutionHours', 'scheduleType'];
const isSecret = (key: string) => SECRET_SETTING_KEYS.includes(key as TSettingKey);
const mask = (s: TSetting): TSetting => (isSecret(s.key) && s.value ? { ...s, value: MASK } : s);

/**
 * Every company's stored settings as the ancestor's FindAllCompaniesService includes them (`settings:
 * [{id, key, value, companyId, createdAt, updatedAt}]`), secrets masked: its company editor and the
 * Campaigns column read them.
 */
export const storedSettingsByCompany = async (db: TDbOrTx) => {
  const byCompany = new Map<number, Record<string, unknown>[]>();
  for (const row of await listAllSettingRows(db)) {
    const list = byCompany.get(row.companyId) ?? [];
    list.push({
      id: row.id,
      key: row.key,
      value: isSecret(row.key) && row.value ? MASK : row.value,
      companyId: row.companyId,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    });
    byCompany.set(row.companyId, list);
  }

  return byCompany;
};

/** every known key with its stored value (from `stored`) or its default */
export const settingsWithDefaults = (stored: { key: string; value: string }[]): TSetting[] => {
  const values = new Map(stored.map((s) => [s.key, s.value]));

  return SETTING_KEYS.map((key) => ({ key, value: values.get(key) ?? SETTING_DEFINITIONS[key].default }));
};

/** every known key with its stored value or its default */
export const readCompanySettings = async (db: TDbOrTx, companyId: number): Promise<TSetting[]> =>
  settingsWithDefaults(await listCompanySettings(db, companyId));

export const readSetting = async (db: TDbOrTx, companyId: number, key: TSettingKey) =>
  (await readCompanySettings(db, companyId)).find((s) => s.key === key)!.value;

export const getSettings = async (ctx: TAppContext, auth: TAuth) => {
  const all = await readCompanySettings(ctx.db, auth.companyId);

  return auth.isAdmin ? all : all.map(mask);
};

export const updateSetting = async (ctx: TAppContext, auth: TAuth, key: string, value: string) => {
  if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND', `Unknown setting ${key}`);
  const parsed = SETTING_DEFINITIONS[key].schema.safeParse(value);
  if (!parsed.success) {
    throw new AppError('ERR_VALIDATION', `Invalid value for ${key}`, [{ path: 'value', message: 'invalid' }]);
  }
  await upsertSetting(ctx.db, auth.companyId, key, value);
  // the company's targets, or the hours they are counted in, apply to its open tickets from now on
  if (SLA_SETTING_KEYS.includes(key)) await markOpenTicketsDirty(ctx.db, auth.companyId);
  const setting = { key, value };
  const event = events.settings(auth.companyId);
  if (isSecret(key)) {
    // secrets reach only the admins in full
    ctx.realtime.to(rooms.admins(auth.companyId), event, { action: 'update', setting });
    ctx.realtime.io
      .to(rooms.main(auth.companyId))
      .except(rooms.admins(auth.companyId))
      .emit(event, { action: 'update', setting: mask(setting) });
  } else {
    ctx.realtime.toCompany(auth.companyId, event, { action: 'update', setting });
  }

  return setting;
};
