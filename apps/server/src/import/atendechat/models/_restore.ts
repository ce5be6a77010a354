/** What a resumed run reads back from the target: the ids (and unique keys) earlier batches imported. */
import { sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { idsOf, ownersOf, type TImportState, takenOf } from '../model';

export const rowsOf = async <T>(db: TDb, text: string) =>
  ((await db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;

/** the ids of `table` into the state's set named `model` */
export const restoreIds = (model: string, table: string) => async (db: TDb, state: TImportState) => {
  const ids = idsOf(state, model);
  for (const r of await rowsOf<{ id: number }>(db, `select id from ${table}`)) ids.add(Number(r.id));
};

/** the ids of `table` and its lower-cased `column` values (taken names) */
export const restoreNames = (kind: string, table: string, column: string) => async (db: TDb, state: TImportState) => {
  const ids = idsOf(state, table);
  const taken = takenOf(state, kind);
  for (const r of await rowsOf<{ id: number; k: string }>(db, `select id, lower(${column}) as k from ${table}`)) {
    ids.add(Number(r.id));
    taken.add(r.k);
  }
};

/** the ids of `table` and the company of each (a tenant table) */
export const restoreOwned = (model: string, table: string) => async (db: TDb, state: TImportState) => {
  const ids = idsOf(state, model);
  const owners = ownersOf(state, model);
  for (const r of await rowsOf<{ id: number; c: number }>(db, `select id, company_id as c from ${table}`)) {
    ids.add(Number(r.id));
    owners.set(Number(r.id), Number(r.c));
  }
};

/** keys a model dedupes on (`<company>:<key>`…), read back as one text column `k` */
export const restoreKeys = (kind: string, text: string) => async (db: TDb, state: TImportState) => {
  const taken = takenOf(state, kind);
  for (const r of await rowsOf<{ k: string }>(db, text)) taken.add(String(r.k));
};

/** runs several restores in order */
export const restoreAll =
  (...steps: ((db: TDb, state: TImportState) => Promise<void>)[]) =>
  async (db: TDb, state: TImportState) => {
    for (const step of steps) await step(db, state);
  };
