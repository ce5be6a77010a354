import { AI_HANDOVER_PHRASE } from '@zelo/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { ticketTrackings, tickets } from '../../db/schema/tickets';
import { companyForInbound, contactById, queueForBot, ticketById } from '../../inbound/inbound.repo';
import { asLang } from '../../inbound/texts';
import type { TAppContext } from '../../lib/context';
import { announceMessageCreated } from '../messages/message-announcer';
import { readMediaFile } from '../messages/media';
import { insertMessageOnce } from '../messages/messages.repo';
import { sendTicketMedia, sendTicketText } from '../messages/send-message';
import { addPromptTokens } from '../prompts/prompts.repo';
import { announceTicket } from '../tickets/ticket-announcer';
import { aiFailureNote, systemPromptOf } from './ai-texts';
import { lastTextMessages, markAiHandover, messageMedia } from './ai.repo';
import { currentTracking } from '../tickets/tickets.repo';
import { synthesizeSpeech } from './azure-tts';
import { AiError, chatCompletion, type TChatMessage, transcribe } from './openai-client';

/**
 * What the AI answers with: a prompt's settings (the AI stage) or a flow's OpenAI node's. `apiKey` and
 * `voiceKey` are plain here (opened by the caller from what is stored sealed).
 */
export type TAiSettings = {
  prompt: string;
  apiKey: string;
  baseUrl?: string | null;
  model: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  /** the queue the ticket moves to on handover */
  queueId?: number | null;
  /** `texto` (or none) = text; else an Azure neural voice */
  voice?: string;
  voiceKey?: string;
  voiceRegion?: string;
};

export type TAiAnswerInput = {
  companyId: number;
  ticketId: number;
  settings: TAiSettings;
  /** the customer's text (for an audio message: its caption, usually empty) */
  body: string;
  /** the stored message being answered: an audio one is transcribed first */
  messageId?: number;
  mediaType?: string;
  /** the flow's OpenAI node: speak the reply when a voice is set */
  speak?: boolean;
  /** a prompt's id: its token counters grow with each call */
  promptId?: number;
  /** told the failure note written on the ticket (the flow's test panel shows it) */
  onFailure?: (note: string) => void;
};

export type TAiOutcome = 'answered' | 'handover' | 'failed';

/** the first name as the system prompt uses it: letters, digits and spaces only (reference §2.6 "sanitised") */
export const firstNameOf = (name: string | null | undefined) =>
  (name ?? '')
    .trim()
    .split(/\s+/)[0]
    ?.replace(/[^\p{L}\p{N}'-]/gu, '')
    .slice(0, 40) ?? '';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** whether the reply asks for a human, and the reply without the phrase */
export const splitHandover = (reply: string): { handover: boolean; text: string } => {
  const folded = fold(reply);
  const phrase = fold(AI_HANDOVER_PHRASE);
  const at = folded.indexOf(phrase);
  if (at < 0) return { handover: false, text: reply.trim() };
  // NFD folding keeps the length of these letters' base forms in step with the original once marks are gone
  const original = reply.normalize('NFD');
  const cut = (() => {
    let seen = 0;
    let i = 0;
    const out: number[] = [];
    for (const ch of original) {
      if (/\p{M}/u.test(ch)) {
        i += ch.length;
        continue;
      }
      out[seen] = i;
      seen += 1;
      i += ch.length;
    }
    out[seen] = i;
    return { start: out[at] ?? 0, end: out[at + phrase.length] ?? original.length };
  })();
  const text = (original.slice(0, cut.start) + original.slice(cut.end))
    .normalize('NFC')
    .replace(/^[\s.:;,!-]+/, '')
    .trim();

  return { handover: true, text };
};

/** a private note on the ticket for the attendants (never sent to the customer), announced like a message */
export const noteOnTicket = async (ctx: TAppContext, companyId: number, ticketId: number, body: string) => {
  const ticket = await ticketById(ctx.db, companyId, ticketId);
  if (!ticket) return;
  const row = await insertMessageOnce(ctx.db, {
    companyId,
    ticketId,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    source: 'system',
    body,
    fromMe: true,
    read: true,
    ack: 0,
    isPrivate: true,
  });
  if (row) await announceMessageCreated(ctx, companyId, row.id);
  // the ticket's lists learn something happened on it
  await announceTicket(ctx, companyId, ticketId, {
    status: ticket.status,
    queueId: ticket.queueId,
    userId: ticket.userId,
  });
};

/** moves the ticket to the prompt's queue as the housekeeping transfer does (pending, no attendant) */
const handOver = async (ctx: TAppContext, companyId: number, ticketId: number, queueId: number | null | undefined) => {
  const before = await ticketById(ctx.db, companyId, ticketId);
  if (!before) return;
  const cycle = (await currentTracking(ctx.db, companyId, ticketId))?.id ?? 0;
  const queue = queueId ? await queueForBot(ctx.db, companyId, queueId) : undefined;
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    await markAiHandover(tx, companyId, ticketId, cycle);
    if (!queue) return;
    const moved = await tx
      .update(tickets)
      .set({ queueId: queue.id, chatbot: false, queueOptionId: null, updatedAt: now })
      .where(and(eq(tickets.companyId, companyId), eq(tickets.id, ticketId), isNull(tickets.userId)))
      .returning({ id: tickets.id });
    if (moved.length === 0) return;
    await tx
      .update(ticketTrackings)
      .set({ queueId: queue.id, queuedAt: now, updatedAt: now })
      .where(
        and(
          eq(ticketTrackings.companyId, companyId),
          eq(ticketTrackings.ticketId, ticketId),
          isNull(ticketTrackings.finishedAt),
        ),
      );
  });
  await announceTicket(ctx, companyId, ticketId, {
    status: before.status,
    queueId: before.queueId,
    userId: before.userId,
  });
};

const historyOf = async (ctx: TAppContext, input: TAiAnswerInput, question: string): Promise<TChatMessage[]> => {
  const rows = await lastTextMessages(ctx.db, input.companyId, input.ticketId, input.settings.maxMessages);
  const turns: TChatMessage[] = rows.map((r) => ({ role: r.fromMe ? 'assistant' : 'user', content: r.body }));
  const last = turns.at(-1);
  if (question && !(last?.role === 'user' && last.content === question))
    turns.push({ role: 'user', content: question });

  return turns;
};

const transcribed = async (ctx: TAppContext, input: TAiAnswerInput) => {
  if (input.mediaType !== 'audio' || !input.messageId) return '';
  const media = await messageMedia(ctx.db, input.companyId, input.messageId);
  if (!media?.mediaUrl) throw new AiError('bad_answer', 'the audio file is missing');
  const audio = await readMediaFile(ctx.config, media.mediaUrl);

  return (
    await transcribe(
      { baseUrl: input.settings.baseUrl, apiKey: input.settings.apiKey },
      {
        audio,
        fileName: media.mediaName || 'audio.ogg',
        mimeType: (media.mediaMime || 'audio/ogg').split(';')[0] as string,
      },
    )
  ).trim();
};

const sendReply = async (ctx: TAppContext, input: TAiAnswerInput, text: string) => {
  const { settings } = input;
  const voice = settings.voice && settings.voice !== 'texto' ? settings.voice : '';
  if (input.speak && voice && settings.voiceKey && settings.voiceRegion) {
    try {
      const audio = await synthesizeSpeech({
        voice,
        key: settings.voiceKey,
        region: settings.voiceRegion,
        text,
        urlTemplate: ctx.config.azureTtsUrl,
      });
      await sendTicketMedia(ctx, {
        companyId: input.companyId,
        ticketId: input.ticketId,
        source: 'bot',
        files: [{ data: audio, mimetype: 'audio/ogg; codecs=opus', fileName: 'resposta.ogg', voiceNote: true }],
        bodies: [],
      });
      return;
    } catch (err) {
      // the voice failed: the text still reaches the customer, and the attendants learn why
      const lang = asLang((await companyForInbound(ctx.db, input.companyId))?.language);
      const kind = err instanceof AiError ? err.kind : 'server';
      await noteOnTicket(ctx, input.companyId, input.ticketId, aiFailureNote(lang, kind, 'Azure speech'));
    }
  }
  await sendTicketText(ctx, { companyId: input.companyId, ticketId: input.ticketId, body: text, source: 'bot' });
};

/**
 * Answers a customer's message with the AI: the audio transcribed first, the ticket's last `maxMessages`
 * text messages in chronological order as the conversation, the reply sent through the ticket's own
 * connection (spoken as a voice note when asked and a voice is set). The handover phrase moves the ticket to
 * the settings' queue and is stripped. A failing API is written on the ticket for the attendants
 * ('failed'); the customer's message then waits for a human.
 */
const answerWithAiNow = async (ctx: TAppContext, input: TAiAnswerInput): Promise<TAiOutcome> => {
  const { companyId, ticketId, settings } = input;
  const [ticket, company] = await Promise.all([
    ticketById(ctx.db, companyId, ticketId),
    companyForInbound(ctx.db, companyId),
  ]);
  if (!ticket) return 'failed';
  const lang = asLang(company?.language);
  try {
    const contact = await contactById(ctx.db, companyId, ticket.contactId);
    const heard = await transcribed(ctx, input);
    const question = [input.body.trim(), heard].filter(Boolean).join('\n');
    const messages: TChatMessage[] = [
      {
        role: 'system',
        content: systemPromptOf(settings.prompt, firstNameOf(contact?.name), settings.maxTokens, AI_HANDOVER_PHRASE),
      },
      ...(await historyOf(ctx, input, question)),
    ];
    const { text, usage } = await chatCompletion(
      { baseUrl: settings.baseUrl, apiKey: settings.apiKey },
      { model: settings.model, messages, maxTokens: settings.maxTokens, temperature: settings.temperature },
    );
    if (input.promptId) await addPromptTokens(ctx.db, companyId, input.promptId, usage);
    const reply = splitHandover(text);
    if (reply.text) await sendReply(ctx, input, reply.text);
    if (reply.handover) {
      await handOver(ctx, companyId, ticketId, settings.queueId);
      return 'handover';
    }
    if (!reply.text) throw new AiError('bad_answer', 'empty reply');

    return 'answered';
  } catch (err) {
    const kind = err instanceof AiError ? err.kind : 'server';
    ctx.log.warn({ err, companyId, ticketId }, 'AI answer failed');
    const note = aiFailureNote(lang, kind, (err as Error).message);
    input.onFailure?.(note);
    await noteOnTicket(ctx, companyId, ticketId, note).catch((noteErr: unknown) =>
      ctx.log.error({ err: noteErr, ticketId }, 'AI failure note not written'),
    );

    return 'failed';
  }
};

/** the answer in its company's AI budget (lib/tenant-budget.ts): over it, the call waits its turn */
export const answerWithAi = (ctx: TAppContext, input: Parameters<typeof answerWithAiNow>[1]) =>
  ctx.budgets.ai.run(input.companyId, 'wait', () => answerWithAiNow(ctx, input));
