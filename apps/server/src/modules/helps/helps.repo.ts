import { asc, eq } from 'drizzle-orm';
import type { THelpBody } from '@zelo/shared';
import type { TDbOrTx } from '../../db/client';
import { helps } from '../../db/schema/index';
import { updateRows } from '../../db/update-rows';

export type THelpRow = typeof helps.$inferSelect;

export const listHelps = (db: TDbOrTx) => db.select().from(helps).orderBy(asc(helps.id));
export const findHelp = async (db: TDbOrTx, id: number) => (await db.select().from(helps).where(eq(helps.id, id)))[0];
export const insertHelp = async (db: TDbOrTx, body: THelpBody) => (await db.insert(helps).values(body).returning())[0];
export const updateHelpRow = async (db: TDbOrTx, id: number, body: THelpBody) =>
  (await updateRows(db, helps, eq(helps.id, id), body))[0];
export const deleteHelpRow = (db: TDbOrTx, id: number) => db.delete(helps).where(eq(helps.id, id));
