import { and, eq, inArray } from 'drizzle-orm';
import type { TChannelSession, TSendResult } from '../../channels/types';
import { intArray as ints, textArray as texts } from '../../db/pg-arrays';
import { queryRows } from '../../db/statements';
import { messages } from '../../db/schema/messages';
import { tickets } from '../../db/schema/tickets';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { appendTicketWordsMany } from '../tickets/ticket-search.repo';
import { toTickets, type TTicketDto } from '../tickets/ticket-dto';
import { selectTickets } from '../tickets/tickets.repo';
import { channelSession } from './channel-access';
import { emitMessageCreated, RECEIPT_ONLY, storedMessageDto } from './message-announcer';
import { messagesByClientIds, type TMessageRow, updateMessageRow } from './messages.repo';
import { releaseEarlyUpdates } from './early-updates';
import { reconcileOne, type TOnceInput, type TOnceResult } from './send-message';
import { rooms, events } from '@zelo/shared';
import { isUniqueViolation } from '../../db/pg-errors';

/**
 * `sendOnce` for many text sends of one company at once (a claimed batch of a campaign or of schedules), with the
 * same guarantees per send: each row is stored under its clientId before it is sent, a row found unfinished is
 * sent again with the same transport id, a reconciled row is never sent again, a row another run stored
 * concurrently is left to that run. The work is shared: the rows found by clientId in one query, the new rows
 * stored with their tickets' last message and search words in one commit, the sends made concurrently, the
 * channel's answers reconciled in one statement, the announcements built from what is known (one read of the
 * tickets for the batch).
 */

export type TManyInput = Omit<TOnceInput, 'media' | 'source'> & {
  /** `agent`: a send made in an attendant's name (a schedule): stored with its user, the ticket's unread count reset */
  source: TOnceInput['source'] | 'agent';
  userId?: number | null;
};

/** per input, in order: its result, or the error that made its send fail (its row, if stored, left failed) */
export type TManyOutcome = { ok: true; result: TOnceResult } | { ok: false; error: unknown };

const TOUCH_TICKETS = `update tickets t set last_message = v.last, last_message_at = v.at, from_me = true,
  unread_messages = case when v.reset then 0 else t.unread_messages end, updated_at = now()
  from unnest($2::int[], $3::text[], $4::timestamptz[], $5::boolean[]) as v(id, last, at, reset)
  where t.company_id = $1 and t.id = v.id`;

const RECONCILE = `update messages m set external_id = v.ext, ack = greatest(m.ack, v.ack), error_code = null,
  error_message = null
  from unnest($2::int[], $3::text[], $4::int[]) as v(id, ext, ack)
  where m.company_id = $1 and m.id = v.id
  returning m.id, m.ack`;

/** the tickets' DTOs of a batch, one read */
const ticketDtos = async (ctx: TAppContext, companyId: number, ids: number[]) => {
  const map = new Map<number, TTicketDto>();
  if (ids.length === 0) return map;
  const rows = await selectTickets(ctx.db).where(and(eq(tickets.companyId, companyId), inArray(tickets.id, ids)));
  for (const t of toTickets(rows)) map.set(t.id, t);

  return map;
};

const emitUpdated = (ctx: TAppContext, companyId: number, row: TMessageRow, ticket: TTicketDto | undefined) => {
  const message = storedMessageDto(ctx, row, ticket?.contact?.name ?? null);
  const list = [rooms.ticket(companyId, row.ticketId)];
  if (ticket?.userId) list.push(rooms.user(companyId, ticket.userId));
  ctx.realtime.to(list, events.appMessage(companyId), { action: 'update', message }, undefined, RECEIPT_ONLY);
};

export const sendManyOnce = async (
  ctx: TAppContext,
  companyId: number,
  inputs: TManyInput[],
): Promise<TManyOutcome[]> => {
  const outcomes: TManyOutcome[] = new Array(inputs.length);
  if (inputs.length === 0) return outcomes;
  if (inputs.some((i) => i.companyId !== companyId)) throw new Error('sendManyOnce: one company per call');
  // a connection that is not connected: nothing of its sends is stored
  const sessions = new Map<number, TChannelSession>();
  const live: number[] = [];
  for (const [i, input] of inputs.entries()) {
    try {
      const whatsappId = input.ticket.whatsappId ?? 0;
      if (!sessions.has(whatsappId)) sessions.set(whatsappId, channelSession(ctx, input.ticket.whatsappId));
      live.push(i);
    } catch (error) {
      outcomes[i] = { ok: false, error };
    }
  }
  const existing = await messagesByClientIds(
    ctx.db,
    companyId,
    live.map((i) => inputs[i]!.clientId),
  );
  /** what is sent: the input's index, its row, whether an earlier attempt left it unfinished */
  const toSend: { i: number; row: TMessageRow; retried: boolean }[] = [];
  const fresh: number[] = [];
  for (const i of live) {
    const row = existing.get(inputs[i]!.clientId);
    if (!row) fresh.push(i);
    else if (row.externalId && row.ack > 0)
      outcomes[i] = { ok: true, result: { messageRowId: row.id, retried: false } };
    else toSend.push({ i, row: { ...row, ack: 1, errorCode: null, errorMessage: null }, retried: true });
  }
  if (toSend.length > 0) {
    await ctx.db
      .update(messages)
      .set({ ack: 1, errorCode: null, errorMessage: null })
      .where(
        and(
          eq(messages.companyId, companyId),
          inArray(
            messages.id,
            toSend.map((s) => s.row.id),
          ),
        ),
      );
  }
  const created: TMessageRow[] = [];
  if (fresh.length > 0) {
    // the rows and their tickets' last message and words in one commit
    const inserted = await ctx.db.transaction(async (tx) => {
      const rows = await tx
        .insert(messages)
        .values(
          fresh.map((i) => {
            const input = inputs[i]!;
            return {
              companyId,
              ticketId: input.ticket.id,
              contactId: input.ticket.contactId,
              whatsappId: input.ticket.whatsappId,
              clientId: input.clientId,
              userId: input.userId ?? null,
              source: input.source,
              body: input.body,
              fromMe: true,
              read: true,
              ack: 1,
              remoteJid: input.to,
            };
          }),
        )
        .onConflictDoNothing()
        .returning();
      if (rows.length > 0) {
        // a ticket's last message is the last of its rows in this batch
        const last = new Map<number, TMessageRow>();
        for (const row of rows) last.set(row.ticketId, row);
        await queryRows(tx, TOUCH_TICKETS, [
          companyId,
          ints([...last.keys()]),
          texts([...last.values()].map((r) => r.body)),
          texts([...last.values()].map((r) => r.createdAt.toISOString())),
          texts([...last.values()].map((r) => (r.source === 'agent' ? 't' : 'f'))),
        ]);
        await appendTicketWordsMany(
          tx,
          companyId,
          rows.map((r) => ({ ticketId: r.ticketId, text: r.body })),
        );
      }

      return rows;
    });
    const byClientId = new Map(inserted.map((r) => [r.clientId!, r]));
    const lost: number[] = [];
    for (const i of fresh) {
      const row = byClientId.get(inputs[i]!.clientId);
      if (row) {
        created.push(row);
        toSend.push({ i, row, retried: false });
      } else lost.push(i);
    }
    if (lost.length > 0) {
      // stored concurrently by another run of the same send: that run sends it
      const again = await messagesByClientIds(
        ctx.db,
        companyId,
        lost.map((i) => inputs[i]!.clientId),
      );
      for (const i of lost) {
        const id = again.get(inputs[i]!.clientId)?.id;
        outcomes[i] = id
          ? { ok: true, result: { messageRowId: id, retried: true } }
          : { ok: false, error: new AppError('ERR_CREATING_MESSAGE') };
      }
    }
  }
  if (toSend.length === 0) return outcomes;
  const dtos = await ticketDtos(ctx, companyId, [...new Set(toSend.map((s) => s.row.ticketId))]);
  for (const row of created) {
    const ticket = dtos.get(row.ticketId);
    if (ticket) emitMessageCreated(ctx, companyId, storedMessageDto(ctx, row, ticket.contact?.name ?? null), ticket);
  }

  // the sends, concurrently; then every answer reconciled at once
  const answers = await Promise.allSettled(
    toSend.map((s) => {
      const input = inputs[s.i]!;
      const session = sessions.get(input.ticket.whatsappId ?? 0)!;
      return session.sendText(input.to, s.row.body, { isGroup: input.ticket.isGroup, messageId: input.messageId });
    }),
  );
  const ok: { s: (typeof toSend)[number]; result: TSendResult }[] = [];
  for (const [k, answer] of answers.entries()) {
    const s = toSend[k]!;
    if (answer.status === 'fulfilled') ok.push({ s, result: answer.value });
    else {
      const err = answer.reason as unknown;
      const code = err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG';
      const text = err instanceof Error ? err.message : String(err);
      ctx.log.warn({ err, messageId: s.row.id }, 'send failed');
      const failedRow = await updateMessageRow(ctx.db, companyId, s.row.id, {
        ack: 0,
        errorCode: code,
        errorMessage: text.slice(0, 1000),
      });
      emitUpdated(ctx, companyId, failedRow ?? s.row, dtos.get(s.row.ticketId));
      outcomes[s.i] = { ok: false, error: err };
    }
  }
  if (ok.length > 0) {
    const acks = (r: TSendResult) => Math.max(0, Math.min(5, r.ack));
    let reconciled: Map<number, number>;
    try {
      const rows = await queryRows<{ id: number; ack: number }>(ctx.db, RECONCILE, [
        companyId,
        ints(ok.map((o) => o.s.row.id)),
        texts(ok.map((o) => o.result.externalId)),
        ints(ok.map((o) => acks(o.result))),
      ]);
      reconciled = new Map(rows.map((r) => [Number(r.id), Number(r.ack)]));
      // what the channel reported on these sends before their ids were recorded (reconcileOne does it one by one)
      for (const o of ok) releaseEarlyUpdates(ctx, o.s.row.whatsappId, [o.result.externalId]);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // a channel's echo of one of these sends was stored as a row of its own: one by one, that copy goes
      reconciled = new Map();
      for (const o of ok) {
        await reconcileOne(ctx, o.s.row, o.result);
        reconciled.set(o.s.row.id, Math.max(o.s.row.ack, acks(o.result)));
      }
    }
    for (const { s, result } of ok) {
      const row = {
        ...s.row,
        externalId: result.externalId,
        ack: reconciled.get(s.row.id) ?? Math.max(s.row.ack, acks(result)),
        errorCode: null,
        errorMessage: null,
      };
      emitUpdated(ctx, companyId, row, dtos.get(row.ticketId));
      outcomes[s.i] = { ok: true, result: { messageRowId: row.id, retried: s.retried } };
    }
  }

  return outcomes;
};
