import type { TBotState } from './automation';
import { isOpenAt, safeTimeZone, type TScheduleRow } from './working-hours';

/**
 * Whether the automation chain (automation.ts `decide`) would do nothing for a customer message: no
 * text to send, no ticket or cycle change other than stamping the cycle into the bot state (which a
 * later run stamps the same way). The batched pipeline skips the chain's transaction for such
 * messages — most of them: a ticket an attendant holds, or one that waits in its queue.
 * Anything uncertain answers false, and the chain runs.
 */
export type TQuietInput = {
  ticket: {
    status: string;
    isGroup: boolean;
    userId: number | null;
    queueId: number | null;
    chatbot: boolean;
    dataWebhook: unknown;
  };
  /** the ticket's current attendance cycle (null: none yet, the chain makes it) */
  cycle: { id: number; ratingAt: Date | null; rated: boolean } | null;
  contact: { disableBot: boolean };
  connection: { greetingMessage: string };
  /** queues the connection's menu offers */
  connectionQueues: number;
  /** setting `scheduleType`: company, queue or disabled */
  scheduleType: string | undefined;
  company: { timezone: string | null; schedules: readonly TScheduleRow[] };
  now: Date;
  /**
   * whether an automation stage (stages.ts: flows, integrations, AI) could act on this ticket: a flow run
   * under way, an active phrase campaign on the connection, the connection's prompt, integration or flows,
   * the ticket's queue with a prompt or an integration, a ticket held by an integration (stage-flags.ts)
   */
  stagesMayAct?: boolean;
};

const hasText = (s: string | null | undefined) => !!s && s.trim().length > 0;

export const automationIsQuiet = (input: TQuietInput): boolean => {
  const { ticket, cycle } = input;
  if (ticket.status === 'closed' || ticket.isGroup) return true;
  if (!cycle) return false;
  // a rating asked on a ticket kept open: the reply is captured by the chain
  if (cycle.ratingAt && !cycle.rated) return false;
  if (ticket.userId || input.contact.disableBot) return true;
  if (input.stagesMayAct) return false;
  if (
    input.scheduleType === 'company' &&
    !isOpenAt(input.company.schedules, safeTimeZone(input.company.timezone), input.now)
  ) {
    return false;
  }
  if (!ticket.queueId) {
    if (input.connectionQueues > 0) return false;
    if (!hasText(input.connection.greetingMessage)) return true;
    const bot = ((ticket.dataWebhook ?? {}) as { bot?: TBotState }).bot ?? {};

    return bot.cycle === cycle.id && !!bot.greetedAt;
  }
  if (input.scheduleType === 'queue') return false;

  return !ticket.chatbot;
};
