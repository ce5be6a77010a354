import type { TAppContext } from '../../../lib/context';
import { contactById } from '../../../inbound/inbound.repo';
import { updateTicket } from '../../tickets/tickets.service';
import { replyMediaUrl, replyText } from './replies';
import { richTextToWhatsApp } from './rich-text';
import { continueChat, startChat, type TTypebotReply } from './typebot-client';
import {
  clearTypebotSession,
  integrationStateOf,
  leaveIntegration,
  readTicket,
  saveTypebotSession,
} from './ticket-state';

/** A Typebot integration's settings (a queue integration's typebot fields, or the flow's Typebot node). */
export type TTypebotSettings = {
  /** Typebot's base URL (the integration's urlN8N) */
  url: string;
  slug: string;
  /** minutes without a message after which the session is dropped; 0 = never */
  expires: number;
  keywordFinish: string;
  keywordRestart: string;
  restartMessage: string;
  unknownMessage: string;
  /** ms before each reply */
  delayMessage: number;
};

export type TTypebotTurnInput = {
  companyId: number;
  ticketId: number;
  settings: TTypebotSettings;
  body: string;
  /** a queue integration's id: marks the ticket as held by it (the flow's node leaves it out) */
  integrationId?: number;
  now?: Date;
};

/** Typebot's own answer to an unexpected input, replaced by the unknown-message text */
const TYPEBOT_INVALID = 'Invalid message. Please, try again.';

const same = (a: string, b: string) => b.trim() !== '' && a.trim().toLowerCase() === b.trim().toLowerCase();

type TControl = { stopBot?: boolean; queueId?: number; userId?: number };

/** `#{json}`: a control command the bot's author wrote as a text bubble */
export const parseControl = (text: string): TControl | null => {
  const t = text.trim();
  if (!t.startsWith('#{')) return null;
  try {
    const v = JSON.parse(t.slice(1)) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
    const o = v as Record<string, unknown>;
    const id = (x: unknown) => (Number.isInteger(Number(x)) && Number(x) > 0 ? Number(x) : undefined);
    return { stopBot: o.stopBot === true, queueId: id(o.queueId), userId: id(o.userId) };
  } catch {
    return null;
  }
};

/** runs a control command; answers whether the bot let the ticket go */
const runControl = async (ctx: TAppContext, companyId: number, ticketId: number, control: TControl) => {
  if (control.queueId) {
    await leaveIntegration(ctx.db, companyId, ticketId);
    await updateTicket(ctx, { system: true, companyId }, ticketId, {
      queueId: control.queueId,
      ...(control.userId ? { userId: control.userId, status: 'open' as const } : {}),
      useIntegration: false,
      integrationId: null,
    });
    return true;
  }
  if (control.stopBot) {
    await leaveIntegration(ctx.db, companyId, ticketId);
    return true;
  }
  return false;
};

/** the lines a choice input offers, as the customer sees them */
const choiceLines = (reply: TTypebotReply) =>
  reply.input?.type === 'choice input'
    ? (reply.input.items ?? [])
        .map((i) => i.content?.trim())
        .filter(Boolean)
        .map((c) => `▶️ ${c}`)
    : [];

/**
 * Sends a Typebot answer's bubbles in order; answers 'ended' when a control command let the ticket go.
 * Text bubbles become WhatsApp markup; images go as files fetched from their URL, audio as voice notes.
 */
const deliver = async (ctx: TAppContext, input: TTypebotTurnInput, reply: TTypebotReply): Promise<'sent' | 'ended'> => {
  const { companyId, ticketId, settings } = input;
  const delay = settings.delayMessage;
  if (reply.messages.length === 0 && choiceLines(reply).length === 0) {
    await replyText(ctx, companyId, ticketId, settings.unknownMessage, delay);
    return 'sent';
  }
  for (const message of reply.messages) {
    if (message.type === 'text') {
      let text = message.content?.richText
        ? richTextToWhatsApp(message.content.richText)
        : (message.content?.markdown ?? message.content?.plainText ?? '');
      const control = parseControl(text);
      if (control) {
        if (await runControl(ctx, companyId, ticketId, control)) return 'ended';
        continue;
      }
      if (text.trim() === TYPEBOT_INVALID) text = settings.unknownMessage;
      await replyText(ctx, companyId, ticketId, text, delay);
    } else if ((message.type === 'image' || message.type === 'audio') && message.content?.url) {
      try {
        // Typebot's audio bubbles are spoken replies: they go as voice notes
        await replyMediaUrl(ctx, companyId, ticketId, message.content.url, delay, {
          voiceNote: message.type === 'audio',
        });
      } catch (err) {
        ctx.log.warn({ err, ticketId }, 'typebot media not sent');
      }
    }
  }
  const lines = choiceLines(reply);
  if (lines.length > 0) await replyText(ctx, companyId, ticketId, lines.join('\n'), delay);
  return 'sent';
};

/**
 * One customer message through a Typebot (reference §2.6, without its bugs): the finish keyword closes the
 * ticket; the restart keyword drops the session, sends the restart message and starts a new chat; a session idle
 * longer than `expires` minutes is dropped; without a session `startChat` (prefilled `number` and `pushName`),
 * else `continueChat` with the text. Answers 'waiting' while the bot expects more, 'ended' when it let the ticket
 * go (finish keyword, a control command, the bot's flow ended). A failing Typebot drops the session and throws.
 */
const typebotTurnNow = async (ctx: TAppContext, input: TTypebotTurnInput): Promise<'waiting' | 'ended'> => {
  const { companyId, ticketId, settings, body } = input;
  const now = input.now ?? new Date();
  const ticket = await readTicket(ctx.db, companyId, ticketId);
  if (!ticket || ticket.status === 'closed') return 'ended';

  if (same(body, settings.keywordFinish)) {
    await leaveIntegration(ctx.db, companyId, ticketId);
    await updateTicket(ctx, { system: true, companyId }, ticketId, { status: 'closed' });
    return 'ended';
  }

  let sessionId = ticket.typebotStatus ? ticket.typebotSessionId : null;
  const lastAt = integrationStateOf(ticket).typebotAt;
  if (sessionId && settings.expires > 0 && lastAt && now.getTime() - Date.parse(lastAt) > settings.expires * 60_000) {
    sessionId = null;
  }
  const restart = same(body, settings.keywordRestart);
  if (restart) {
    sessionId = null;
    await clearTypebotSession(ctx.db, companyId, ticketId);
    await replyText(ctx, companyId, ticketId, settings.restartMessage, settings.delayMessage);
  }

  let reply: TTypebotReply;
  try {
    if (sessionId) {
      reply = await continueChat(ctx, settings.url, sessionId, body);
    } else {
      const contact = await contactById(ctx.db, companyId, ticket.contactId);
      reply = await startChat(ctx, settings.url, settings.slug, {
        number: contact?.number ?? '',
        pushName: contact?.name ?? '',
      });
      if (!reply.sessionId) throw new Error('Typebot started no session');
      sessionId = reply.sessionId;
    }
    await saveTypebotSession(ctx.db, companyId, ticketId, sessionId, now, input.integrationId);
  } catch (err) {
    await clearTypebotSession(ctx.db, companyId, ticketId);
    throw err;
  }

  if ((await deliver(ctx, input, reply)) === 'ended') return 'ended';
  if (!reply.input) {
    // the bot's flow is over: the next message starts a new chat
    await clearTypebotSession(ctx.db, companyId, ticketId);
    return 'ended';
  }
  return 'waiting';
};

/** the turn in its company's integration budget (lib/tenant-budget.ts): over it, the turn waits its turn */
export const typebotTurn = (ctx: TAppContext, input: Parameters<typeof typebotTurnNow>[1]) =>
  ctx.budgets.integrations.run(input.companyId, 'wait', () => typebotTurnNow(ctx, input));
