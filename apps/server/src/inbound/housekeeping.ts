import type { TJobDefinition } from '../jobs/boss';
import type { TAppContext } from '../lib/context';
import { isCompanyActive } from '../modules/companies/company-active';
import { readSetting } from '../modules/settings/settings.service';
import { transferText } from '../modules/tickets/automatic-texts';
import { announceTicket } from '../modules/tickets/ticket-announcer';
import { findTicketPlain } from '../modules/tickets/tickets.repo';
import {
  closeIdleTicket,
  companyForInbound,
  expiresMessageOf,
  finishCycle,
  listIdleTickets,
  listTransferDue,
  type TIdleRule,
  queueForBot,
  transferToQueue,
} from './inbound.repo';
import { expireCommentWaits } from './rating-comment';
import { sendBotTexts } from './send';

/**
 * Ticket housekeeping (reference §4.6, without its legacy rooms): each runs every minute as pg-boss
 * schedules (once across the nodes), and each ticket is changed by a conditional update, so a second
 * run, or a ticket the customer answered meanwhile, changes nothing. A company past its due date (or
 * inactive) is skipped until it pays (companies/company-active.ts).
 */

/**
 * Open, non-group tickets a connection closes by itself (inbound.repo IDLE_RULES): after `expiresTicket`
 * minutes without a customer reply to our last message (`expiresInactiveMessage` sent when set), and after
 * `closeOpenChatsAfterMinutes` minutes without any message (closed quietly). The cycle is finished and the
 * change announced to the rooms of the ticket's company.
 */
const closeIdle = async (ctx: TAppContext, rule: TIdleRule, now: Date) => {
  let closed = 0;
  for (const hit of await listIdleTickets(ctx.db, rule, now)) {
    if (!(await isCompanyActive(ctx, hit.companyId, now))) continue; // paused while past due (issue 13)
    const before = await ctx.db.transaction(async (tx) => {
      const row = await closeIdleTicket(tx, rule, hit.companyId, hit.id, now);
      if (row) await finishCycle(tx, hit.companyId, hit.id, now);

      return row;
    });
    if (!before) continue;
    closed += 1;
    if (rule === 'inactive' && before.whatsappId) {
      const message = await expiresMessageOf(ctx.db, hit.companyId, before.whatsappId);
      if (message.trim()) await sendBotTexts(ctx, hit.companyId, hit.id, [message]);
    }
    await announceTicket(ctx, hit.companyId, hit.id, {
      status: 'open',
      queueId: before.queueId,
      userId: before.userId,
    });
  }

  return closed;
};

export const closeInactiveTickets = (ctx: TAppContext, now = new Date()) => closeIdle(ctx, 'inactive', now);
export const closeIdleOpenChats = (ctx: TAppContext, now = new Date()) => closeIdle(ctx, 'openChats', now);

/**
 * Pending tickets without queue older than their connection's `timeToTransfer` minutes go to its
 * `transferQueueId` (same company), with the cycle's queuedAt, announced to the queue's rooms; the
 * customer gets the transfer notice when `sendMsgTransfTicket` is enabled, as after a manual transfer.
 */
export const transferWaitingTickets = async (ctx: TAppContext, now = new Date()) => {
  let moved = 0;
  for (const hit of await listTransferDue(ctx.db, now)) {
    if (!hit.transferQueueId) continue;
    if (!(await isCompanyActive(ctx, hit.companyId, now))) continue; // paused while past due (issue 13)
    const queueId = hit.transferQueueId;
    const done = await ctx.db.transaction((tx) => transferToQueue(tx, hit.companyId, hit.id, queueId, now));
    if (!done) continue;
    moved += 1;
    await announceTicket(ctx, hit.companyId, hit.id, { status: 'pending', queueId: null, userId: null });
    await tellCustomerOfTransfer(ctx, hit.companyId, hit.id, queueId);
  }

  return moved;
};

/** the transfer notice a manual transfer sends (setting sendMsgTransfTicket), in the company's language */
const tellCustomerOfTransfer = async (ctx: TAppContext, companyId: number, ticketId: number, queueId: number) => {
  if ((await readSetting(ctx.db, companyId, 'sendMsgTransfTicket')) !== 'enabled') return;
  const [company, queue, ticket] = await Promise.all([
    companyForInbound(ctx.db, companyId),
    queueForBot(ctx.db, companyId, queueId),
    findTicketPlain(ctx.db, companyId, ticketId),
  ]);
  if (!queue || !ticket || ticket.isGroup) return;
  await sendBotTexts(ctx, companyId, ticketId, [transferText(company?.language, { queueName: queue.name })]);
};

export const housekeepingJobs = (ctx: TAppContext): TJobDefinition[] => [
  {
    name: 'tickets-inactivity-close',
    cron: '* * * * *',
    handler: async () => void (await closeInactiveTickets(ctx)),
  },
  {
    name: 'tickets-open-chats-close',
    cron: '* * * * *',
    handler: async () => void (await closeIdleOpenChats(ctx)),
  },
  {
    name: 'ratings-comment-expire',
    cron: '* * * * *',
    handler: async () => void (await expireCommentWaits(ctx)),
  },
  {
    name: 'tickets-auto-transfer',
    cron: '* * * * *',
    handler: async () => void (await transferWaitingTickets(ctx)),
  },
];
