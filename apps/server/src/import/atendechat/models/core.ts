/**
 * Plans, companies (status, due date, recurrence, language, working hours) and their settings. Rules:
 * a name empty or taken (case-insensitively) is made unique with ` #<id>`; a company without a known plan
 * keeps none; a setting without a company, or repeated for one, is skipped.
 */
import { sql } from 'drizzle-orm';
import { restoreNames } from './_restore';
import { companies, plans, settings, type TWorkingHourRow } from '../../../db/schema/core';
import { bool, cut, date, day, idOrNull, int, json, nameOr } from '../clean';
import { insertRows } from '../insert';
import { idsOf, type TModel, takenOf } from '../model';

/** a unique name: the cleaned one, or with ` #id` when empty or already taken (case-insensitively) */
export const uniqueName = (
  taken: Set<string>,
  value: unknown,
  id: number,
  max: number,
  fallback: string,
  scope = '',
) => {
  const adjusted: string[] = [];
  let name = nameOr(value, max, fallback);
  if (!cut(value, max).trim()) adjusted.push('empty name given a default');
  if (taken.has(scope + name.toLowerCase())) {
    name = `${cut(name, max - String(id).length - 2)} #${id}`;
    adjusted.push('name already taken, suffixed with its id');
  }
  taken.add(scope + name.toLowerCase());

  return { name, adjusted };
};

type TPlan = typeof plans.$inferInsert;
export const plansModel: TModel<TPlan> = {
  name: 'plans',
  table: 'Plans',
  key: ['id'],
  required: ['id', 'name'],
  optional: [
    'users',
    'connections',
    'queues',
    'value',
    'createdAt',
    'updatedAt',
    'useCampaigns',
    'useExternalApi',
    'useInternalChat',
    'useSchedules',
    'useKanban',
    'useIntegrations',
    'useOpenAi',
  ],
  restore: restoreNames('plan', 'plans', 'name'),
  map: (r, { state }) => {
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(takenOf(state, 'plan'), r.name, id, 50, `Plan ${id}`);
    idsOf(state, 'plans').add(id);
    const value = Number(r.value ?? 0);

    return {
      adjusted,
      row: {
        id,
        name,
        users: int(r.users, 0),
        connections: int(r.connections, 0),
        queues: int(r.queues, 0),
        value: Number.isFinite(value) && value >= 0 ? Math.round(value * 100) / 100 : 0,
        useCampaigns: bool(r.useCampaigns, true),
        useSchedules: bool(r.useSchedules, true),
        useInternalChat: bool(r.useInternalChat, true),
        useExternalApi: bool(r.useExternalApi, true),
        useKanban: bool(r.useKanban, true),
        useOpenAi: bool(r.useOpenAi, true),
        useIntegrations: bool(r.useIntegrations, true),
        createdAt: date(r.createdAt, new Date()) ?? undefined,
        updatedAt: date(r.updatedAt, new Date()) ?? undefined,
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, plans, rows);
    return undefined;
  },
};

const LANGUAGES = new Set(['pt', 'en', 'es']);

/** the ancestor's working hours (`[{weekday, weekdayEn, startTime, endTime}]`), else none */
export const workingHours = (value: unknown): { rows: TWorkingHourRow[]; bad: boolean } => {
  const parsed = json(value);
  if (parsed === undefined || parsed === null) return { rows: [], bad: false };
  if (!Array.isArray(parsed)) return { rows: [], bad: true };
  const rows = parsed
    .filter((e) => e && typeof e === 'object')
    .map((e) => ({
      weekday: cut(e.weekday, 30),
      weekdayEn: cut(e.weekdayEn, 12).toLowerCase(),
      startTime: cut(e.startTime, 5),
      endTime: cut(e.endTime, 5),
    }));

  return { rows, bad: rows.length !== parsed.length };
};

type TCompany = typeof companies.$inferInsert;
export const companiesModel: TModel<TCompany> = {
  name: 'companies',
  table: 'Companies',
  key: ['id'],
  required: ['id', 'name'],
  optional: [
    'phone',
    'email',
    'createdAt',
    'updatedAt',
    'planId',
    'status',
    'schedules',
    'dueDate',
    'recurrence',
    'language',
  ],
  restore: restoreNames('company', 'companies', 'name'),
  map: (r, { state }) => {
    const id = idOrNull(r.id)!;
    const { name, adjusted } = uniqueName(takenOf(state, 'company'), r.name, id, 50, `Company ${id}`);
    let planId = idOrNull(r.planId);
    if (planId !== null && !idsOf(state, 'plans').has(planId)) {
      planId = null;
      adjusted.push('plan not in the source: company keeps no plan');
    }
    const hours = workingHours(r.schedules);
    if (hours.bad) adjusted.push('working hours not understood: dropped');
    const language = cut(r.language, 5).slice(0, 2).toLowerCase();
    idsOf(state, 'companies').add(id);

    return {
      adjusted,
      row: {
        id,
        name,
        email: cut(r.email, 254).trim(),
        phone: cut(r.phone, 20).trim(),
        planId,
        status: bool(r.status, true),
        dueDate: day(r.dueDate),
        recurrence: cut(r.recurrence, 12).trim() || 'MENSAL',
        language: LANGUAGES.has(language) ? language : 'pt',
        schedules: hours.rows,
        createdAt: date(r.createdAt, new Date()) ?? undefined,
        updatedAt: date(r.updatedAt, new Date()) ?? undefined,
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, companies, rows);
    return undefined;
  },
};

type TSetting = typeof settings.$inferInsert;
export const settingsModel: TModel<TSetting> = {
  name: 'settings',
  table: 'Settings',
  key: ['id'],
  required: ['id', 'key', 'value', 'companyId'],
  optional: ['createdAt', 'updatedAt'],
  restore: async (db, state) => {
    const res = (await db.execute(sql`select company_id, key from settings`)) as unknown as {
      rows: { company_id: number; key: string }[];
    };
    for (const r of res.rows) takenOf(state, 'setting').add(`${r.company_id}:${r.key}`);
  },
  map: (r, { state }) => {
    const companyId = idOrNull(r.companyId);
    if (companyId === null || !idsOf(state, 'companies').has(companyId)) return { skip: 'setting of no company' };
    const key = cut(r.key, 64).trim();
    if (!key) return { skip: 'setting without a key' };
    const taken = takenOf(state, 'setting');
    if (taken.has(`${companyId}:${key}`)) return { skip: 'setting repeated for its company (first kept)' };
    taken.add(`${companyId}:${key}`);

    return {
      row: {
        id: idOrNull(r.id)!,
        companyId,
        key,
        value: cut(r.value, 100_000),
        createdAt: date(r.createdAt, new Date()) ?? undefined,
        updatedAt: date(r.updatedAt, new Date()) ?? undefined,
      },
    };
  },
  write: async (tx, rows) => {
    await insertRows(tx, settings, rows);
    return undefined;
  },
};
