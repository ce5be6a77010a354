import { eq } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { settings } from '../../db/schema/index';

export const listCompanySettings = (db: TDbOrTx, companyId: number) =>
  db.select({ key: settings.key, value: settings.value }).from(settings).where(eq(settings.companyId, companyId));

export const upsertSetting = async (db: TDbOrTx, companyId: number, key: string, value: string) => {
  await db
    .insert(settings)
    .values({ companyId, key, value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: new Date() } });
};
