import { and, eq, inArray, lt } from 'drizzle-orm';
import { messages } from '../../db/schema/messages';
import { textArray } from '../../db/pg-arrays';
import { queryRows } from '../../db/statements';
import type { TAppContext } from '../../lib/context';
import { announceMessagesUpdated } from './message-announcer';
import type { TMessageRow } from './messages.repo';

/**
 * Acks reported by a channel in the same turn of the event loop (a burst's acks come in slots) raised together:
 * one update per connection and ack value, each row only upwards, as `raiseAck` does one by one. Each caller gets
 * its row when its ack rose (already announced, with the others), `NOT_STORED` when no message of the connection
 * carries that channel id yet (the ack came before the send's outcome was recorded), else null.
 */
export const NOT_STORED = 'not-stored' as const;

type TPendingAck = {
  whatsappId: number;
  externalId: string;
  ack: number;
  resolve: (row: TMessageRow | typeof NOT_STORED | null) => void;
  reject: (err: unknown) => void;
};

const queues = new WeakMap<object, TPendingAck[]>();

const flush = async (ctx: TAppContext) => {
  const batch = queues.get(ctx) ?? [];
  queues.delete(ctx);
  const groups = new Map<string, TPendingAck[]>();
  for (const p of batch) {
    const key = `${p.whatsappId}:${p.ack}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  for (const list of groups.values()) {
    const { whatsappId, ack } = list[0]!;
    try {
      const rows = await ctx.db
        .update(messages)
        .set({ ack })
        .where(
          and(
            eq(messages.whatsappId, whatsappId),
            inArray(
              messages.externalId,
              list.map((p) => p.externalId),
            ),
            lt(messages.ack, ack),
          ),
        )
        .returning();
      await announceMessagesUpdated(ctx, rows);
      const byId = new Map(rows.map((r) => [r.externalId!, r]));
      const unchanged = list.filter((p) => !byId.has(p.externalId)).map((p) => p.externalId);
      // an ack that raised nothing: its message already that far, or not stored yet (one plain read tells which)
      const stored = new Set(
        unchanged.length === 0
          ? []
          : (
              await queryRows<{ external_id: string }>(
                ctx.db,
                'select external_id from messages where whatsapp_id = $1 and external_id = any($2::text[])',
                [whatsappId, textArray(unchanged)],
              )
            ).map((r) => r.external_id),
      );
      for (const p of list) {
        const row = byId.get(p.externalId);
        p.resolve(row ?? (stored.has(p.externalId) ? null : NOT_STORED));
        byId.delete(p.externalId);
      }
    } catch (err) {
      for (const p of list) p.reject(err);
    }
  }
};

export const raiseAckBatched = (ctx: TAppContext, whatsappId: number, externalId: string, ack: number) =>
  new Promise<TMessageRow | typeof NOT_STORED | null>((resolve, reject) => {
    let queue = queues.get(ctx);
    if (!queue) {
      queue = [];
      queues.set(ctx, queue);
      setImmediate(() => void flush(ctx));
    }
    queue.push({ whatsappId, externalId, ack, resolve, reject });
  });
