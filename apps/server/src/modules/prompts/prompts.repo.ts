import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { prompts } from '../../db/schema/automation';
import { queues } from '../../db/schema/queues';
import { updateRows } from '../../db/update-rows';
import { likePattern } from '../../lib/paging';

export type TPromptRow = typeof prompts.$inferSelect;
export type TPromptInsert = typeof prompts.$inferInsert;
export type TPromptWithQueue = TPromptRow & { queue: { id: number; name: string } | null };

const withQueue = { prompt: prompts, queue: { id: queues.id, name: queues.name } };
const joined = (rows: { prompt: TPromptRow; queue: { id: number; name: string } | null }[]): TPromptWithQueue[] =>
  rows.map((r) => ({ ...r.prompt, queue: r.queue?.id ? r.queue : null }));

export const pagePrompts = async (db: TDbOrTx, companyId: number, search: string, limit: number, offset: number) => {
  const parts: SQL[] = [eq(prompts.companyId, companyId)];
  if (search) parts.push(sql`${prompts.name} ILIKE ${likePattern(search)}`);
  const where = and(...parts);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select(withQueue)
      .from(prompts)
      .leftJoin(queues, and(eq(queues.id, prompts.queueId), eq(queues.companyId, companyId)))
      .where(where)
      .orderBy(asc(sql`lower(${prompts.name})`), asc(prompts.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(prompts).where(where),
  ]);

  return { rows: joined(rows), total };
};

export const findPrompt = async (db: TDbOrTx, companyId: number, id: number) =>
  joined(
    await db
      .select(withQueue)
      .from(prompts)
      .leftJoin(queues, and(eq(queues.id, prompts.queueId), eq(queues.companyId, companyId)))
      .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id))),
  )[0];

export const queueInCompany = async (db: TDbOrTx, companyId: number, queueId: number) =>
  (
    await db
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(queues.companyId, companyId), eq(queues.id, queueId)))
  ).length > 0;

export const insertPrompt = async (db: TDbOrTx, values: TPromptInsert) =>
  (await db.insert(prompts).values(values).returning())[0] as TPromptRow;

export const updatePromptRow = async (db: TDbOrTx, companyId: number, id: number, patch: Partial<TPromptInsert>) =>
  (await updateRows(db, prompts, and(eq(prompts.companyId, companyId), eq(prompts.id, id)), patch))[0];

export const deletePromptRow = async (db: TDbOrTx, companyId: number, id: number) =>
  (
    await db
      .delete(prompts)
      .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)))
      .returning({ id: prompts.id })
  ).length > 0;

/** adds a call's token counts (the ancestor never updated them) */
export const addPromptTokens = (
  db: TDbOrTx,
  companyId: number,
  id: number,
  usage: { promptTokens: number; completionTokens: number; totalTokens: number },
) =>
  db
    .update(prompts)
    .set({
      promptTokens: sql`${prompts.promptTokens} + ${usage.promptTokens}`,
      completionTokens: sql`${prompts.completionTokens} + ${usage.completionTokens}`,
      totalTokens: sql`${prompts.totalTokens} + ${usage.totalTokens}`,
    })
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, id)));
