import { events } from '@zelo/shared';
import type { TInboundMessage } from '../channels/types';
import type { TAppContext } from '../lib/context';
import { emitMessageCreated, storedMessageDto } from '../modules/messages/message-announcer';
import { renameContact, type TMessageRow } from '../modules/messages/messages.repo';
import { inboundPreview } from '../modules/messages/preview';
import { describeInbound } from '../modules/messages/store-inbound';
import { settingsWithDefaults } from '../modules/settings/settings.service';
import { emitTicketUpdated } from '../modules/tickets/ticket-announcer';
import { newTicketCode } from '../modules/tickets/ticket-lifecycle';
import { ticketsByIds } from '../modules/tickets/ticket-list.repo';
import {
  batchContextOf,
  claimContactRefreshes,
  contactsOfNumbers,
  currentCyclesOf,
  contactsWithTickets,
  newPendingTickets,
  numbersAwaitingRating,
  storedExternalIds,
  storeMessages,
  type TBatchContact,
  type TNewMessage,
} from './batch.repo';
import { createBatcher } from './batcher';
import type { companyForInbound, TConnectionRow } from './inbound.repo';
import { automationIsQuiet } from './quiet';
import { connectionMayAct, ticketsStagesMayAct } from './stage-flags';
import { safeTimeZone } from './working-hours';

/**
 * The batched pipeline for the common inbound message: a customer's text, location or contact card in
 * a one-to-one chat. Messages that arrive while a batch is being stored form the next batch, and a batch
 * costs about ten statements in five rounds whatever its size (batch.repo.ts): what the connection needs and
 * the replays; rating waits and contacts; tickets (found, or made in one statement); the messages with their
 * tickets' last message, unread count and search words (one statement); then ticket rows, cycles and
 * profile-refresh claims for the announcements.
 *
 * It decides nothing the one-by-one pipeline (index.ts `handleMessage`) would decide differently:
 * anything else answers `slow` and goes there — media, quotes, groups, our own messages, a rating reply,
 * a ticket to reopen, a batch that failed. The caller runs the rest for a `stored` message: the daily
 * profile refresh it claimed, and the automation chain unless `quiet` (quiet.ts).
 */

const FAST_TYPES = new Set(['text', 'location', 'vcard', 'contacts']);

export const isFastPathCandidate = (m: TInboundMessage) =>
  !m.fromMe && !m.isGroup && !m.media && !m.quotedExternalId && FAST_TYPES.has(m.type);

export type TFastCompany = Awaited<ReturnType<typeof companyForInbound>>;

export type TFastResult =
  | { kind: 'slow' }
  /** nothing to do: a replayed delivery, or a message for an unknown connection */
  | { kind: 'done' }
  | {
      kind: 'stored';
      connection: TConnectionRow;
      company: TFastCompany;
      settings: Map<string, string>;
      contact: TBatchContact;
      ticketId: number;
      /** the stored message (its row id and media type), for the stages */
      messageId: number;
      mediaType: string | null;
      /** this message claimed the contact's daily profile refresh */
      refresh: boolean;
      /** the automation chain would do nothing */
      quiet: boolean;
    };

const SLOW: TFastResult = { kind: 'slow' };
const DONE: TFastResult = { kind: 'done' };

const digits = (value: string) => value.replace(/\D/g, '');
const unique = <T>(values: T[]) => [...new Set(values)];
const pushNameOf = (m: TInboundMessage) => (m.pushName ?? '').trim().slice(0, 200);
const sentAt = (m: TInboundMessage) =>
  m.timestamp instanceof Date && !Number.isNaN(m.timestamp.getTime()) ? m.timestamp : new Date();

type TKnownContact = TBatchContact & { activeTicketId: number | null };

/**
 * The batch's contacts by number: found with their active ticket, or made with a pending ticket (both
 * announced, `createdTickets`), or renamed from their placeholder name.
 */
const contactsFor = async (
  ctx: TAppContext,
  connection: TConnectionRow,
  company: TFastCompany,
  messages: TInboundMessage[],
) => {
  const companyId = connection.companyId;
  const names = new Map<string, string>();
  for (const m of messages) if (!names.get(digits(m.from))) names.set(digits(m.from), pushNameOf(m));
  const numbers = [...names.keys()];
  const timeZone = safeTimeZone(company?.timezone);
  const rows = await contactsWithTickets(
    ctx.db,
    companyId,
    connection.id,
    numbers.map((number) => ({ number, name: names.get(number) || number, code: newTicketCode(timeZone) })),
    new Date(),
  );
  const known = new Map<string, TKnownContact>();
  const createdTickets = new Set<number>();
  for (const { created, ...c } of rows) {
    known.set(c.number, c);
    if (!created) continue;
    if (c.activeTicketId !== null) createdTickets.add(c.activeTicketId);
    ctx.realtime.toCompany(companyId, events.contact(companyId), {
      action: 'create',
      contact: { ...c, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() },
    });
  }
  // made at the same moment elsewhere
  const raced = numbers.filter((n) => !known.has(n));
  if (raced.length > 0) {
    for (const c of await contactsOfNumbers(ctx.db, companyId, connection.id, raced)) known.set(c.number, c);
  }
  // a name that is still the number takes the push name
  await Promise.all(
    [...known.values()].map(async (c) => {
      const name = names.get(c.number);
      if (c.name !== c.number || !name || name === c.number) return;
      const renamed = await renameContact(ctx.db, companyId, c.id, name);
      if (renamed) known.set(c.number, { ...renamed, activeTicketId: c.activeTicketId });
    }),
  );

  return { known, createdTickets };
};

/**
 * The active ticket of each contact (its id by contact id): the one read with the contact, or made pending
 * in one statement. Contacts whose closed ticket is within the reopen window are left to the one-by-one
 * pipeline.
 */
const ticketsFor = async (
  ctx: TAppContext,
  connection: TConnectionRow,
  company: TFastCompany,
  reopenWindowMinutes: number,
  contacts: { id: number; activeTicketId: number | null }[],
) => {
  const active = new Map<number, number>();
  for (const c of contacts) if (c.activeTicketId !== null) active.set(c.id, c.activeTicketId);
  const timeZone = safeTimeZone(company?.timezone);
  const made = await newPendingTickets(
    ctx.db,
    connection.companyId,
    connection.id,
    unique(contacts.filter((c) => c.activeTicketId === null).map((c) => c.id)),
    { reopenWindowMinutes, code: () => newTicketCode(timeZone) },
  );
  for (const [contactId, ticketId] of made.active) active.set(contactId, ticketId);

  return { active, created: made.created };
};

/** the row of a message the batch stored, as the announcements read it */
const storedRow = (
  companyId: number,
  connectionId: number,
  m: TNewMessage,
  stamp: { id: number; createdAt: Date; updatedAt: Date },
): TMessageRow => ({
  ...stamp,
  companyId,
  ticketId: m.ticketId,
  contactId: m.contactId,
  whatsappId: connectionId,
  externalId: m.externalId,
  clientId: null,
  userId: null,
  source: 'customer',
  body: m.body,
  fromMe: false,
  read: false,
  ack: 3,
  mediaType: m.mediaType,
  mediaUrl: null,
  mediaName: null,
  mediaMime: null,
  isDeleted: false,
  isEdited: false,
  isPrivate: false,
  quotedMsgId: null,
  remoteJid: m.remoteJid,
  participant: m.participant,
  dataJson: null,
  errorCode: null,
  errorMessage: null,
});

/** stores the batch's messages of one connection; one result per message, in order */
const storeForConnection = async (
  ctx: TAppContext,
  connectionId: number,
  batch: TInboundMessage[],
  now: () => Date,
): Promise<TFastResult[]> => {
  const results: TFastResult[] = batch.map(() => SLOW);
  const [context, replayed] = await Promise.all([
    batchContextOf(ctx.db, connectionId),
    storedExternalIds(
      ctx.db,
      connectionId,
      batch.map((m) => m.externalId),
    ),
  ]);
  if (!context) {
    ctx.log.warn({ connectionId }, 'message for an unknown connection dropped');
    return batch.map(() => DONE);
  }
  const { connection, company } = context;
  const promptQueues = new Set<number>(
    (typeof context.promptQueues === 'string' ? JSON.parse(context.promptQueues) : context.promptQueues) ?? [],
  );
  const companyId = connection.companyId;
  const stored = typeof context.settings === 'string' ? JSON.parse(context.settings) : (context.settings ?? []);
  const settings = new Map(settingsWithDefaults(stored).map((s) => [s.key, s.value]));

  // replays (also within the batch) change nothing; rating replies go one by one
  let live: number[] = [];
  const seen = new Set(replayed);
  batch.forEach((m, i) => {
    if (seen.has(m.externalId)) results[i] = DONE;
    else {
      seen.add(m.externalId);
      live.push(i);
    }
  });
  if (live.length === 0) return results;
  const [rating, found] = await Promise.all([
    numbersAwaitingRating(ctx.db, companyId, connectionId, unique(live.map((i) => digits(batch[i]!.from)))),
    contactsFor(
      ctx,
      connection,
      company,
      live.map((i) => batch[i]!),
    ),
  ]);
  const contacts = found.known;
  // a rating reply goes one by one
  live = live.filter((i) => !rating.has(digits(batch[i]!.from)) && contacts.has(digits(batch[i]!.from)));
  if (live.length === 0) return results;
  const contactOf = (i: number) => contacts.get(digits(batch[i]!.from))!;
  const { active, created } = await ticketsFor(
    ctx,
    connection,
    company,
    Number(settings.get('reopenWindowMinutes')) || 0,
    live.map(contactOf),
  );
  live = live.filter((i) => active.has(contactOf(i).id));
  if (live.length === 0) return results;
  const ticketOf = (i: number) => active.get(contactOf(i).id)!;

  // the messages with their tickets' last message, unread count and search words, in one statement
  const toStore = new Map<number, TNewMessage>(
    live.map((i) => {
      const m = batch[i]!;
      const described = describeInbound(m);
      return [
        i,
        {
          ticketId: ticketOf(i),
          contactId: contactOf(i).id,
          externalId: m.externalId,
          body: described.body,
          mediaType: described.mediaType,
          remoteJid: m.from,
          participant: m.participant ?? null,
          createdAt: sentAt(m),
          label: inboundPreview(described),
        },
      ];
    }),
  );
  const stamps = await storeMessages(ctx.db, companyId, connectionId, [...toStore.values()], new Date());
  // stored meanwhile by a concurrent delivery: nothing more to do
  for (const i of live) if (!stamps.has(batch[i]!.externalId)) results[i] = DONE;
  const storedIdx = live.filter((i) => stamps.has(batch[i]!.externalId));
  if (storedIdx.length === 0) return results;
  const ticketIds = unique(storedIdx.map(ticketOf));
  const [ticketRows, cycles, refreshes, connectionActs, ticketsAct] = await Promise.all([
    ticketsByIds(ctx.db, companyId, ticketIds),
    currentCyclesOf(ctx.db, companyId, ticketIds),
    claimContactRefreshes(ctx.db, companyId, unique(storedIdx.map((i) => contactOf(i).id)), now()),
    connectionMayAct(ctx.db, connection),
    ticketsStagesMayAct(ctx.db, companyId, ticketIds),
  ]);

  const dtos = new Map(ticketRows.map((r) => [r.ticket.id, r.ticket]));
  const bots = new Map(ticketRows.map((r) => [r.ticket.id, r.bot]));
  const cycleOf = new Map(cycles.map((c) => [c.ticketId, c]));
  for (const id of [...found.createdTickets, ...created]) {
    const dto = dtos.get(id);
    if (dto) emitTicketUpdated(ctx, companyId, dto);
  }
  const at = now();
  for (const i of storedIdx) {
    const contact = contactOf(i);
    const ticketId = ticketOf(i);
    const dto = dtos.get(ticketId);
    const row = storedRow(companyId, connectionId, toStore.get(i)!, stamps.get(batch[i]!.externalId)!);
    if (dto) emitMessageCreated(ctx, companyId, storedMessageDto(ctx, row, contact.name), dto);
    const quiet =
      !!dto &&
      !!company &&
      automationIsQuiet({
        ticket: { ...dto, dataWebhook: { bot: bots.get(ticketId) } },
        cycle: cycleOf.get(ticketId) ?? null,
        contact,
        connection,
        connectionQueues: context.queues,
        aiPrompt: dto.queueId ? promptQueues.has(dto.queueId) : !!connection.promptId,
        scheduleType: settings.get('scheduleType'),
        company: { timezone: company.timezone, schedules: company.schedules ?? [] },
        now: at,
        stagesMayAct: connectionActs || ticketsAct.has(ticketId),
      });
    const refresh = refreshes.delete(contact.id);
    results[i] = {
      kind: 'stored',
      connection,
      company,
      settings,
      contact,
      ticketId,
      messageId: row.id,
      mediaType: row.mediaType,
      refresh,
      quiet,
    };
  }

  return results;
};

/** stores a batch (of any connections); a batch that fails is handed back to the one-by-one pipeline */
const storeBatch = async (ctx: TAppContext, batch: TInboundMessage[], now: () => Date) => {
  const results: TFastResult[] = batch.map(() => SLOW);
  const byConnection = new Map<number, number[]>();
  for (const [i, m] of batch.entries()) {
    byConnection.set(m.connectionId, [...(byConnection.get(m.connectionId) ?? []), i]);
  }
  await Promise.all(
    [...byConnection].map(async ([connectionId, indexes]) => {
      try {
        const answers = await storeForConnection(
          ctx,
          connectionId,
          indexes.map((i) => batch[i]!),
          now,
        );
        indexes.forEach((i, k) => {
          results[i] = answers[k]!;
        });
      } catch (err) {
        ctx.log.warn({ err, connectionId, messages: indexes.length }, 'inbound batch failed; messages go one by one');
      }
    }),
  );

  return results;
};

export type TFastPathOptions = {
  now: () => Date;
  /** messages of one batch at most */
  maxBatch?: number;
  /** batches stored at once */
  concurrency?: number;
  /** told the size of every batch (tests, diagnostics) */
  onBatch?: (size: number) => void;
};

export const createFastPath = (ctx: TAppContext, opts: TFastPathOptions) =>
  createBatcher<TInboundMessage, TFastResult>({
    maxSize: opts.maxBatch ?? 200,
    concurrency: opts.concurrency ?? 2,
    run: (batch) => {
      opts.onBatch?.(batch.length);
      return storeBatch(ctx, batch, opts.now);
    },
  });
