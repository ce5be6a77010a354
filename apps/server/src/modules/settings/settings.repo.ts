import { asc, eq, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { preparedQuery } from '../../db/prepared';
import { settings } from '../../db/schema/index';

const companySettingsQuery = preparedQuery(
  (db, name) =>
    db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(eq(settings.companyId, sql.placeholder('companyId')))
      .prepare(name),
  'company_settings',
);

export const listCompanySettings = (db: TDbOrTx, companyId: number) => companySettingsQuery(db).execute({ companyId });

export const upsertSetting = async (db: TDbOrTx, companyId: number, key: string, value: string) => {
  await db
    .insert(settings)
    .values({ companyId, key, value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: new Date() } });
};

/** every company's stored settings rows (the super user's company list), ordered by company and key */
export const listAllSettingRows = (db: TDbOrTx) =>
  db.select().from(settings).orderBy(asc(settings.companyId), asc(settings.key));
