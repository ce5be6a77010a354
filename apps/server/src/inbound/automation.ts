import type { TDbOrTx } from '../db/client';
import type { TAppContext } from '../lib/context';
import { isCompanyActive } from '../modules/companies/company-active';
import { applyVariables } from '../modules/messages/variables';
import { readCompanySettings } from '../modules/settings/settings.service';
import { announceTicket, type TTicketPlace } from '../modules/tickets/ticket-announcer';
import {
  mayResendMenu,
  parseRating,
  pickQueue,
  renderOptionsLevel,
  renderQueueMenu,
  SAFETY_MAX_MENU_SENDS,
  stepOptions,
  type TMenuOption,
} from './bot-rules';
import {
  abandonRating,
  automationTicket,
  claimRating,
  companyForInbound,
  contactById,
  currentCycle,
  lockTicket,
  optionsOfQueue,
  patchCycle,
  patchTicket,
  queueForBot,
  queuesOfConnection,
  startCycle,
  type TBotQueue,
  type TConnectionRow,
  type TCycleRow,
  type TTicketRow,
} from './inbound.repo';
import { markCycleReopened } from '../modules/reports/metrics.repo';
import { afterRatingText, commentDueAt } from './rating-comment';
import { sendBotTexts } from './send';
import { AUTOMATION_STAGES, runStages, type TStageInput } from './stages';
import { asLang } from './texts';
import { isOpenAt, safeTimeZone, type TScheduleRow, wasOpenBetween } from './working-hours';

/**
 * The automation chain of reference §2.6 for one customer message, in order: rating capture, working
 * hours, greeting / queue menu, options tree. Everything it decides is written under the ticket's row
 * lock (`select … for update`) in one transaction, so two messages of one ticket never decide on the same
 * state, on one node or several; the messages it decided to send go out after the commit, in order.
 *
 * Bot state that has no column of its own lives in `tickets.dataWebhook.bot` (merged, never replacing the
 * flow engine's keys): the cycle it belongs to, when the last menu and the last out-of-hours message went.
 */

export type TBotState = { cycle?: number; menuAt?: string; outOfHoursAt?: string; greetedAt?: string };

export type TAutomationInput = {
  companyId: number;
  ticketId: number;
  body: string;
  connection: TConnectionRow;
  /** what the pipeline already read for this message (read here when absent) */
  known?: {
    company?: Awaited<ReturnType<typeof companyForInbound>>;
    contact?: Awaited<ReturnType<typeof contactById>>;
    settings?: Map<string, string>;
    /**
     * the ticket as read (without a lock) when the stages were allowed to run; a stage reads it from here
     * instead of again, and takes its own lock for what it writes
     */
    ticket?: TTicketRow;
  };
};

/** `startIntegration`: a queue with an integration (Typebot, flow, …) was just chosen and answers at once */
type TPlan = { sends: string[]; previous?: TTicketPlace; startIntegration?: boolean };

const placeOf = (t: TTicketRow): TTicketPlace => ({ status: t.status, queueId: t.queueId, userId: t.userId });

const hasText = (s: string | null | undefined): s is string => !!s && s.trim().length > 0;

const decide = async (db: TDbOrTx, input: TAutomationInput, now: Date): Promise<TPlan | null> => {
  const { companyId, connection } = input;
  const locked = await lockTicket(db, companyId, input.ticketId);
  if (!locked || locked.status === 'closed' || locked.isGroup) return null;
  let ticket: TTicketRow = locked;
  let cycle: TCycleRow = await currentCycle(db, ticket);
  const known = input.known ?? {};
  const company = known.company ?? (await companyForInbound(db, companyId));
  const contact =
    known.contact?.id === ticket.contactId ? known.contact : await contactById(db, companyId, ticket.contactId);
  if (!company || !contact) return null;
  const timeZone = safeTimeZone(company.timezone);
  const lang = asLang(company.language);
  const settings = known.settings ?? new Map((await readCompanySettings(db, companyId)).map((s) => [s.key, s.value]));
  const plan: TPlan = { sends: [] };
  const vars = (body: string) =>
    applyVariables(body, {
      contactName: contact.name,
      timeZone,
      language: lang,
      protocol: ticket.code ?? undefined,
      at: now,
    });
  const send = (body: string | null | undefined) => {
    if (hasText(body)) plan.sends.push(vars(body));
  };

  // 1. rating capture, when the ticket was kept open for it (a closed one is handled before storing)
  if (cycle.ratingAt && !cycle.rated) {
    const rate = parseRating(input.body);
    if (rate) {
      const dueAt = commentDueAt(settings, now);
      if (await claimRating(db, companyId, cycle.id, rate, now, dueAt)) {
        await patchTicket(db, companyId, ticket.id, {
          status: 'closed',
          closedAt: now,
          chatbot: false,
          unreadMessages: 0,
        });
        plan.previous = placeOf(ticket);
        send(afterRatingText(dueAt, lang, connection.complationMessage));
      }

      return plan;
    }
    // anything else is a new conversation: the rating is dropped, the ticket waits for the bot again
    await abandonRating(db, companyId, cycle.id, now);
    plan.previous = placeOf(ticket);
    const reset = {
      status: 'pending',
      userId: null,
      queueId: null,
      chatbot: false,
      queueOptionId: null,
      amountUsedBotQueues: 0,
    };
    await patchTicket(db, companyId, ticket.id, reset);
    await markCycleReopened(db, companyId, ticket.id, now);
    await startCycle(db, ticket, now);
    ticket = { ...ticket, ...reset };
    cycle = await currentCycle(db, ticket);
  }

  if (ticket.userId || contact.disableBot) return plan;

  // per-cycle bot state: a new attendance cycle starts the counting again
  const stored = ((ticket.dataWebhook ?? {}) as { bot?: TBotState }).bot ?? {};
  const fresh = stored.cycle !== cycle.id;
  const bot: TBotState = fresh ? { cycle: cycle.id, outOfHoursAt: stored.outOfHoursAt } : { ...stored };
  const patch: Partial<TTicketRow> = {};
  let used = fresh ? 0 : ticket.amountUsedBotQueues;
  if (fresh && ticket.amountUsedBotQueues !== 0) patch.amountUsedBotQueues = 0;
  const cap = connection.maxUseBotQueues > 0 ? connection.maxUseBotQueues : SAFETY_MAX_MENU_SENDS;

  const outOfHours = (message: string, schedules: TScheduleRow[]) => {
    const last = bot.outOfHoursAt ? new Date(bot.outOfHoursAt) : null;
    if (!last || wasOpenBetween(schedules, timeZone, last, now)) {
      send(message);
      bot.outOfHoursAt = now.toISOString();
    }
  };

  /** sends a menu: `forward` after a valid choice (not counted), `back` after # or 0, `resend` after a bad answer */
  const menu = (body: string, how: 'first' | 'forward' | 'back' | 'resend'): 'sent' | 'limit' | 'wait' => {
    if (how === 'back' && used >= cap) return 'limit';
    if (how === 'resend') {
      const verdict = mayResendMenu({
        used,
        maxUse: connection.maxUseBotQueues,
        intervalMinutes: connection.timeUseBotQueues,
        lastMenuAt: bot.menuAt ? new Date(bot.menuAt) : null,
        now,
      });
      if (verdict !== 'send') return verdict;
    }
    if (how !== 'forward') used += 1;
    plan.sends.push(vars(body));
    bot.menuAt = now.toISOString();

    return 'sent';
  };

  const chatbotStarted = async () => {
    if (!cycle.chatbotAt) await patchCycle(db, companyId, cycle.id, { chatbotAt: now });
  };

  const queueMenu = (queues: TBotQueue[]) => renderQueueMenu(connection.greetingMessage, queues);

  const optionsLevel = (queue: TBotQueue, options: TMenuOption[], nodeId: number | null) => {
    const node = nodeId === null ? null : options.find((o) => o.id === nodeId);
    const header = node ? node.message || node.title : queue.greetingMessage;

    return renderOptionsLevel(lang, header, options, nodeId);
  };

  const scheduleType = settings.get('scheduleType');
  const queueMode = scheduleType === 'queue';
  const queueClosed = (queue: TBotQueue) => queueMode && !isOpenAt(queue.schedules, timeZone, now);

  /** puts the ticket in a queue; answers whether the options tree starts */
  const assignQueue = async (queue: TBotQueue, options: TMenuOption[]) => {
    plan.previous ??= placeOf(ticket);
    patch.queueId = queue.id;
    patch.queueOptionId = null;
    // the queue's integration takes the conversation from the next message (reference §2.6 step 8)
    if (queue.integrationId) Object.assign(patch, { useIntegration: true, integrationId: queue.integrationId });
    await patchCycle(db, companyId, cycle.id, { queueId: queue.id, queuedAt: now });
    if (queueClosed(queue)) {
      // waits in its queue for the attendants; the options tree is not offered out of hours
      patch.chatbot = false;
      outOfHours(queue.outOfHoursMessage, queue.schedules);
      return;
    }
    if (options.length > 0) {
      patch.chatbot = true;
      menu(optionsLevel(queue, options, null), 'forward');
    } else {
      patch.chatbot = false;
      send(queue.greetingMessage);
      // the customer should not have to write again to wake the queue's bot or flow
      if (queue.integrationId) plan.startIntegration = true;
    }
  };

  await (async () => {
    // 2. working hours
    if (scheduleType === 'company' && !isOpenAt(company.schedules, timeZone, now)) {
      outOfHours(connection.outOfHoursMessage, company.schedules);
      return;
    }
    if (queueMode && ticket.queueId) {
      const queue = await queueForBot(db, companyId, ticket.queueId);
      if (queue && !isOpenAt(queue.schedules, timeZone, now)) {
        outOfHours(queue.outOfHoursMessage, queue.schedules);
        return;
      }
    }

    // 3. greeting and the queue menu
    if (!ticket.queueId) {
      const queues = await queuesOfConnection(db, companyId, connection.id);
      if (queues.length === 0) {
        if (!bot.greetedAt && hasText(connection.greetingMessage)) {
          send(connection.greetingMessage);
          bot.greetedAt = now.toISOString();
          await chatbotStarted();
        }
        return;
      }
      if (queues.length === 1) {
        const queue = queues[0]!;
        if (settings.get('sendGreetingMessageOneQueues') === 'enabled') send(connection.greetingMessage);
        await chatbotStarted();
        await assignQueue(queue, await optionsOfQueue(db, companyId, queue.id));
        return;
      }
      if (!bot.menuAt) {
        menu(queueMenu(queues), 'first');
        await chatbotStarted();
        return;
      }
      const chosen = pickQueue(queues, input.body);
      if (chosen) {
        await assignQueue(chosen, await optionsOfQueue(db, companyId, chosen.id));
        return;
      }
      menu(queueMenu(queues), 'resend');
      return;
    }

    // 4. the options tree of the ticket's queue
    if (!ticket.chatbot) return;
    const queue = await queueForBot(db, companyId, ticket.queueId);
    const options = queue ? await optionsOfQueue(db, companyId, queue.id) : [];
    if (!queue || options.length === 0) {
      patch.chatbot = false;
      return;
    }
    const step = stepOptions(options, ticket.queueOptionId, input.body);
    if (step.kind === 'main') {
      const queues = await queuesOfConnection(db, companyId, connection.id);
      if (queues.length > 1) {
        if (menu(queueMenu(queues), 'back') === 'limit') {
          patch.chatbot = false;
          return;
        }
        plan.previous ??= placeOf(ticket);
        Object.assign(patch, { queueId: null, queueOptionId: null, chatbot: false });
        await patchCycle(db, companyId, cycle.id, { queueId: null });
        return;
      }
      if (menu(optionsLevel(queue, options, null), 'back') === 'limit') patch.chatbot = false;
      else patch.queueOptionId = null;
      return;
    }
    if (step.kind === 'show') {
      const verdict = menu(optionsLevel(queue, options, step.nodeId), step.back ? 'back' : 'forward');
      if (verdict === 'limit') patch.chatbot = false;
      else patch.queueOptionId = step.nodeId;
      return;
    }
    if (step.kind === 'leaf') {
      // answered once; the bot leaves the ticket to the attendants
      send(step.option.message || step.option.title);
      patch.queueOptionId = step.option.id;
      patch.chatbot = false;
      return;
    }
    if (menu(optionsLevel(queue, options, ticket.queueOptionId), 'resend') === 'limit') patch.chatbot = false;
  })();

  if (used !== ticket.amountUsedBotQueues) patch.amountUsedBotQueues = used;
  // a message the bot lets pass (waiting for a human, too soon for a re-send) writes nothing
  if (Object.keys(patch).length > 0 || JSON.stringify(bot) !== JSON.stringify(stored)) {
    const dataWebhook = { ...((ticket.dataWebhook ?? {}) as Record<string, unknown>), bot };
    await patchTicket(db, companyId, ticket.id, { ...patch, dataWebhook } as Parameters<typeof patchTicket>[3]);
  }

  return plan;
};

/**
 * whether the stages (flows, integrations, AI) may answer this message: a ticket no attendant holds, not a
 * group, the contact's bot on, no rating pending, and the company open when its hours are the company's.
 * Answers the ticket as read (one statement with the rating question), for the stages, or null.
 */
const stagesMayRun = async (ctx: TAppContext, input: TStageInput, now: Date): Promise<TTicketRow | null> => {
  const read = await automationTicket(ctx.db, input.companyId, input.ticketId);
  if (!read || read.ratingPending) return null;
  const { ticket } = read;
  if (ticket.status === 'closed' || ticket.isGroup || ticket.userId) return null;
  const known = input.known ?? {};
  const contact =
    known.contact?.id === ticket.contactId
      ? known.contact
      : await contactById(ctx.db, input.companyId, ticket.contactId);
  if (!contact || contact.disableBot) return null;
  const settings =
    known.settings ?? new Map((await readCompanySettings(ctx.db, input.companyId)).map((s) => [s.key, s.value]));
  if (settings.get('scheduleType') === 'company') {
    const company = known.company ?? (await companyForInbound(ctx.db, input.companyId));
    if (!company || !isOpenAt(company.schedules, safeTimeZone(company.timezone), now)) return null;
  }

  return ticket;
};

/**
 * runs the chain for a stored customer message; the sends and events happen after the commit. A company
 * past its due date (or inactive) keeps its messages but its bots pause (issue 13): nothing runs.
 */
export const runAutomation = async (ctx: TAppContext, input: TStageInput, now: Date) => {
  if (!(await isCompanyActive(ctx, input.companyId, now))) return;
  try {
    await runChain(ctx, input, now);
  } finally {
    // whatever answered (a leaf option, a flow's or an integration's end), the ticket may now wait for a
    // person: automatic assignment looks (nothing for a company without an auto-assign queue)
    ctx.assignment?.kick(input.companyId);
  }
};

const runChain = async (ctx: TAppContext, input: TStageInput, now: Date) => {
  const ticket = AUTOMATION_STAGES.length > 0 ? await stagesMayRun(ctx, input, now) : null;
  if (ticket && (await runStages(ctx, { ...input, known: { ...input.known, ticket } }, now))) return;
  const plan = await ctx.db.transaction((tx) => decide(tx, input, now));
  if (!plan) return;
  await sendBotTexts(ctx, input.companyId, input.ticketId, plan.sends);
  if (plan.previous) await announceTicket(ctx, input.companyId, input.ticketId, plan.previous);
  if (plan.startIntegration) {
    // the chosen queue's integration (a Typebot chat, a flow) starts now, after the queue's greeting
    const placed = await stagesMayRun(ctx, input, now);
    if (placed) await runStages(ctx, { ...input, known: { ...input.known, ticket: placed } }, now);
  }
};
