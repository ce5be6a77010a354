import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';
import { messages } from '../../db/schema/messages';
import { tickets } from '../../db/schema/tickets';

/** the ticket's last `limit` text messages, oldest first (the ancestor sent them newest first) */
export const lastTextMessages = async (db: TDbOrTx, companyId: number, ticketId: number, limit: number) => {
  if (limit <= 0) return [];
  const rows = await db
    .select({ id: messages.id, body: messages.body, fromMe: messages.fromMe })
    .from(messages)
    .where(
      and(
        eq(messages.companyId, companyId),
        eq(messages.ticketId, ticketId),
        isNull(messages.mediaType),
        eq(messages.isPrivate, false),
        eq(messages.isDeleted, false),
        sql`btrim(${messages.body}) <> ''`,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(limit);

  return rows.reverse();
};

export const messageMedia = async (db: TDbOrTx, companyId: number, messageId: number) =>
  (
    await db
      .select({ mediaUrl: messages.mediaUrl, mediaName: messages.mediaName, mediaMime: messages.mediaMime })
      .from(messages)
      .where(and(eq(messages.companyId, companyId), eq(messages.id, messageId)))
  )[0];

type TAiState = { lockUntil?: string | null; again?: boolean; handoverCycle?: number | null };

const aiState = sql`coalesce(${tickets.dataWebhook}->'ai', '{}'::jsonb)`;
const setAi = (patch: Record<string, unknown>) =>
  sql`jsonb_set(coalesce(${tickets.dataWebhook}, '{}'::jsonb), '{ai}', ${aiState} || ${JSON.stringify(patch)}::jsonb)`;

/**
 * One AI run at a time per ticket, on any node: the run claims the ticket until `until` (a crashed run's
 * claim expires). A message arriving meanwhile marks `again`, and the run answers once more when it ends.
 */
export const claimAiRun = async (db: TDbOrTx, companyId: number, ticketId: number, now: Date, until: Date) => {
  const claimed = await db
    .update(tickets)
    .set({ dataWebhook: setAi({ lockUntil: until.toISOString(), again: false }) })
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.id, ticketId),
        sql`(${aiState}->>'lockUntil' is null or (${aiState}->>'lockUntil')::timestamptz < ${now.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ id: tickets.id });
  if (claimed.length > 0) return true;
  await db
    .update(tickets)
    .set({ dataWebhook: setAi({ again: true }) })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));

  return false;
};

/** ends the claim; answers whether a message came meanwhile (then the caller runs again) */
export const releaseAiRun = async (db: TDbOrTx, companyId: number, ticketId: number) =>
  db.transaction(async (tx) => {
    const [row] = await tx
      .select({ ai: aiState })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
      .for('update');
    await tx
      .update(tickets)
      .set({ dataWebhook: setAi({ lockUntil: null, again: false }) })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));

    return Boolean((row?.ai as TAiState | undefined)?.again);
  });

export const readAiState = async (db: TDbOrTx, companyId: number, ticketId: number): Promise<TAiState> =>
  ((
    await db
      .select({ ai: aiState })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)))
  )[0]?.ai as TAiState | undefined) ?? {};

export const markAiHandover = (db: TDbOrTx, companyId: number, ticketId: number, cycle: number) =>
  db
    .update(tickets)
    .set({ dataWebhook: setAi({ handoverCycle: cycle }) })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId)));
