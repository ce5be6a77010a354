import type { TAppContext } from '../../../lib/context';
import { updateTicket } from '../../tickets/tickets.service';
import type { TIntegrationRow } from '../queue-integrations.repo';
import { readMediaFile, toVoiceNote } from '../../messages/media';
import { findMessagePlain } from '../../messages/messages.repo';
import { sendTicketMedia } from '../../messages/send-message';
import { DIALOGFLOW_AUDIO_RATE, detectIntent, type TDialogflowPayload } from './dialogflow';
import { openSecret } from './io';
import { replyMediaUrl, replyText } from './replies';
import { holdWithIntegration, leaveIntegration } from './ticket-state';

/** reference §2.6: what the customer reads when the agent has no answer, in the agent's language */
const NOT_UNDERSTOOD: Record<string, string> = {
  pt: 'Não consegui entender sua dúvida.',
  en: "I couldn't understand your question.",
  es: 'No pude entender su pregunta.',
};
/** an agent's reply holding this closes the ticket (the ancestor's convention) */
const CLOSING_TEXT = 'atendimento finalizado';
const REPLY_DELAY_MS = 1000;

/**
 * What the agent is asked: the customer's audio (converted to Ogg/Opus at 16 kHz) when the message is a voice note
 * and ffmpeg can read it, "imagem" for a picture or a document (the ancestor's convention), else the text.
 */
const queryOf = async (
  ctx: TAppContext,
  input: { companyId: number; body: string; messageId?: number; mediaType?: string },
): Promise<{ text: string; audio?: Buffer }> => {
  const media = input.messageId ? await findMessagePlain(ctx.db, input.companyId, input.messageId) : null;
  const kind = input.mediaType ?? (media?.mediaUrl ? 'file' : 'chat');
  if (kind === 'audio' && media?.mediaUrl) {
    const heard = await readMediaFile(ctx.config, media.mediaUrl)
      .then((data) => toVoiceNote(ctx.config, data, { sampleRate: DIALOGFLOW_AUDIO_RATE }))
      .catch(() => null);
    if (heard) return { text: input.body, audio: heard };
  }
  if (!input.body.trim() && media?.mediaUrl) return { text: 'imagem' };

  return { text: input.body };
};

/** a custom payload: its image sent by URL; its reaction as the emoji itself (the channels send no reactions yet) */
const sendPayload = async (
  ctx: TAppContext,
  companyId: number,
  ticketId: number,
  payload: TDialogflowPayload,
  delay: number,
) => {
  if (payload.image) {
    await replyMediaUrl(ctx, companyId, ticketId, payload.image, delay).catch((err) =>
      ctx.log.warn({ err, ticketId }, 'dialogflow image not sent'),
    );
  }
  if (payload.react) await replyText(ctx, companyId, ticketId, payload.react, delay);
};

/** the agent's spoken answer as a voice note (as the file the agent made when ffmpeg cannot convert it) */
const sendSpokenAnswer = async (ctx: TAppContext, companyId: number, ticketId: number, audio: Buffer) => {
  const voice = await toVoiceNote(ctx.config, audio);
  const file = voice
    ? { data: voice, mimetype: 'audio/ogg; codecs=opus', fileName: 'dialogflow.ogg', voiceNote: true }
    : { data: audio, mimetype: 'application/octet-stream', fileName: 'dialogflow-audio' };
  await sendTicketMedia(ctx, { companyId, ticketId, source: 'bot', files: [file], bodies: [''] });
};

/**
 * One customer message through a Dialogflow agent: the session is the ticket's own (its uuid, never the
 * customer's push name); a voice note is heard as audio; each fulfilment text goes out as "*Name:*\ntext", a
 * custom payload's image and reaction after them, the agent's spoken answer as a voice note; end of conversation
 * leaves the integration; no reply at all sends the not-understood text.
 */
const dialogflowTurnNow = async (
  ctx: TAppContext,
  input: {
    companyId: number;
    ticket: { id: number; uuid: string };
    integration: TIntegrationRow;
    body: string;
    /** the stored message being answered, and its media type: a customer's audio is heard by the agent */
    messageId?: number;
    mediaType?: string;
    delayMs?: number;
  },
) => {
  const { companyId, ticket, integration } = input;
  const delay = input.delayMs ?? REPLY_DELAY_MS;
  const sessionId = `zelo-${ticket.uuid}`;
  await holdWithIntegration(ctx.db, companyId, ticket.id, integration.id, { dialogflowSession: sessionId });
  const query = await queryOf(ctx, input);
  const result = await detectIntent(ctx, {
    projectName: integration.projectName,
    jsonContent: openSecret(ctx, integration.jsonContent),
    language: integration.language,
    sessionId,
    ...query,
  });
  if (result.texts.length === 0 && result.payloads.length === 0 && !result.outputAudio) {
    const lang = integration.language.slice(0, 2);
    await replyText(ctx, companyId, ticket.id, NOT_UNDERSTOOD[lang] ?? NOT_UNDERSTOOD.pt!, delay);
  }
  for (const text of result.texts) {
    await replyText(ctx, companyId, ticket.id, `*${integration.name}:*\n${text}`, delay);
  }
  for (const payload of result.payloads) {
    await sendPayload(ctx, companyId, ticket.id, payload, delay);
  }
  if (result.outputAudio) await sendSpokenAnswer(ctx, companyId, ticket.id, result.outputAudio);
  if (result.texts.some((t) => t.toLowerCase().includes(CLOSING_TEXT))) {
    await leaveIntegration(ctx.db, companyId, ticket.id);
    await updateTicket(ctx, { system: true, companyId }, ticket.id, { status: 'closed' });
  } else if (result.endConversation) {
    await leaveIntegration(ctx.db, companyId, ticket.id);
  }
};

/** the turn in its company's integration budget (lib/tenant-budget.ts): over it, the turn waits its turn */
export const dialogflowTurn = (ctx: TAppContext, input: Parameters<typeof dialogflowTurnNow>[1]) =>
  ctx.budgets.integrations.run(input.companyId, 'wait', () => dialogflowTurnNow(ctx, input));
