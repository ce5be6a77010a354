import type { TJobDefinition } from '../jobs/boss';
import type { TAppContext } from '../lib/context';
import { announceTicket } from '../modules/tickets/ticket-announcer';
import {
  closeInactiveTicket,
  expiresMessageOf,
  finishCycle,
  listInactiveTickets,
  listTransferDue,
  transferToQueue,
} from './inbound.repo';
import { sendBotTexts } from './send';

/**
 * Ticket housekeeping (reference §4.6, without its legacy rooms): both run every minute as pg-boss
 * schedules (once across the nodes), and each ticket is changed by a conditional update, so a second
 * run, or a ticket the customer answered meanwhile, changes nothing.
 */

/**
 * Open, non-group tickets whose connection closes them after `expiresTicket` minutes without a customer
 * reply to our last message: closed, the cycle finished, `expiresInactiveMessage` sent when set, and
 * the change announced to the rooms of the ticket's company.
 */
export const closeInactiveTickets = async (ctx: TAppContext, now = new Date()) => {
  let closed = 0;
  for (const hit of await listInactiveTickets(ctx.db, now)) {
    const before = await ctx.db.transaction(async (tx) => {
      const row = await closeInactiveTicket(tx, hit.companyId, hit.id, now);
      if (row) await finishCycle(tx, hit.companyId, hit.id, now);

      return row;
    });
    if (!before) continue;
    closed += 1;
    const message = before.whatsappId ? await expiresMessageOf(ctx.db, hit.companyId, before.whatsappId) : '';
    if (message.trim()) await sendBotTexts(ctx, hit.companyId, hit.id, [message]);
    await announceTicket(ctx, hit.companyId, hit.id, {
      status: 'open',
      queueId: before.queueId,
      userId: before.userId,
    });
  }

  return closed;
};

/**
 * Pending tickets without queue older than their connection's `timeToTransfer` minutes go to its
 * `transferQueueId` (same company), with the cycle's queuedAt, announced to the queue's rooms.
 */
export const transferWaitingTickets = async (ctx: TAppContext, now = new Date()) => {
  let moved = 0;
  for (const hit of await listTransferDue(ctx.db, now)) {
    if (!hit.transferQueueId) continue;
    const queueId = hit.transferQueueId;
    const done = await ctx.db.transaction((tx) => transferToQueue(tx, hit.companyId, hit.id, queueId, now));
    if (!done) continue;
    moved += 1;
    await announceTicket(ctx, hit.companyId, hit.id, { status: 'pending', queueId: null, userId: null });
  }

  return moved;
};

export const housekeepingJobs = (ctx: TAppContext): TJobDefinition[] => [
  {
    name: 'tickets-inactivity-close',
    cron: '* * * * *',
    handler: async () => void (await closeInactiveTickets(ctx)),
  },
  {
    name: 'tickets-auto-transfer',
    cron: '* * * * *',
    handler: async () => void (await transferWaitingTickets(ctx)),
  },
];
