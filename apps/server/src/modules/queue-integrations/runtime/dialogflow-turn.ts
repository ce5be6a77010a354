import type { TAppContext } from '../../../lib/context';
import { updateTicket } from '../../tickets/tickets.service';
import type { TIntegrationRow } from '../queue-integrations.repo';
import { detectIntent } from './dialogflow';
import { openSecret } from './io';
import { replyText } from './replies';
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
 * One customer message through a Dialogflow agent: the session is the ticket's own (its uuid, never the
 * customer's push name), each fulfilment text goes out as "*Name:*\ntext"; end of conversation leaves the
 * integration; no reply sends the not-understood text.
 */
export const dialogflowTurn = async (
  ctx: TAppContext,
  input: {
    companyId: number;
    ticket: { id: number; uuid: string };
    integration: TIntegrationRow;
    body: string;
    delayMs?: number;
  },
) => {
  const { companyId, ticket, integration } = input;
  const delay = input.delayMs ?? REPLY_DELAY_MS;
  const sessionId = `zelo-${ticket.uuid}`;
  await holdWithIntegration(ctx.db, companyId, ticket.id, integration.id, { dialogflowSession: sessionId });
  const result = await detectIntent(ctx, {
    projectName: integration.projectName,
    jsonContent: openSecret(ctx, integration.jsonContent),
    language: integration.language,
    sessionId,
    text: input.body,
  });
  if (result.texts.length === 0) {
    const lang = integration.language.slice(0, 2);
    await replyText(ctx, companyId, ticket.id, NOT_UNDERSTOOD[lang] ?? NOT_UNDERSTOOD.pt!, delay);
  }
  for (const text of result.texts) {
    await replyText(ctx, companyId, ticket.id, `*${integration.name}:*\n${text}`, delay);
  }
  if (result.texts.some((t) => t.toLowerCase().includes(CLOSING_TEXT))) {
    await leaveIntegration(ctx.db, companyId, ticket.id);
    await updateTicket(ctx, { system: true, companyId }, ticket.id, { status: 'closed' });
  } else if (result.endConversation) {
    await leaveIntegration(ctx.db, companyId, ticket.id);
  }
};
