import { and, eq, sql } from 'drizzle-orm';
import { promptModelId } from '@zelo/shared';
import { prompts } from '../../db/schema/automation';
import { whatsapps } from '../../db/schema/connections';
import { companies, plans } from '../../db/schema/core';
import { queues } from '../../db/schema/queues';
import type { TDbOrTx } from '../../db/client';
import { companyForInbound, ticketById } from '../../inbound/inbound.repo';
import { asLang } from '../../inbound/texts';
import type { TInboundStage, TStageInput } from '../../inbound/stages';
import type { TAppContext } from '../../lib/context';
import { openSecret } from '../../lib/secrets';
import { claimAiRun, readAiState, releaseAiRun } from './ai.repo';
import { currentTracking } from '../tickets/tickets.repo';
import { aiFailureNote } from './ai-texts';
import { answerWithAi, noteOnTicket } from './answer';

/** a run holds the ticket at most this long (a crashed node's claim expires) */
const CLAIM_MS = 3 * 60_000;

/**
 * The prompt answering a ticket: its queue's when it has a queue, else its connection's; only while the
 * company's plan has `useOpenAi`.
 */
export const promptForTicket = async (
  db: TDbOrTx,
  companyId: number,
  ticket: { queueId: number | null; whatsappId: number | null },
) => {
  const owner = ticket.queueId
    ? db
        .select({ promptId: queues.promptId })
        .from(queues)
        .where(and(eq(queues.companyId, companyId), eq(queues.id, ticket.queueId)))
    : ticket.whatsappId
      ? db
          .select({ promptId: whatsapps.promptId })
          .from(whatsapps)
          .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, ticket.whatsappId)))
      : undefined;
  const promptId = owner ? (await owner)[0]?.promptId : null;
  if (!promptId) return undefined;
  const [row] = await db
    .select({ prompt: prompts })
    .from(prompts)
    .innerJoin(companies, eq(companies.id, prompts.companyId))
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(and(eq(prompts.companyId, companyId), eq(prompts.id, promptId), sql`${plans.useOpenAi} = true`));

  return row?.prompt;
};

const runOnce = async (ctx: TAppContext, input: TStageInput, first: boolean) => {
  const ticket = await ticketById(ctx.db, input.companyId, input.ticketId);
  if (!ticket || ticket.userId || ticket.status === 'closed') return;
  const prompt = await promptForTicket(ctx.db, input.companyId, ticket);
  if (!prompt) return;
  const { companyId, ticketId } = input;
  let apiKey: string;
  let voiceKey: string;
  try {
    apiKey = openSecret(prompt.apiKey);
    voiceKey = openSecret(prompt.voiceKey);
  } catch {
    // sealed under another ZELO_SECRET_KEY: the attendants learn the AI cannot answer
    const lang = asLang((await companyForInbound(ctx.db, companyId))?.language);
    await noteOnTicket(ctx, companyId, ticketId, aiFailureNote(lang, 'auth', 'ZELO_SECRET_KEY'));
    return;
  }
  await answerWithAi(ctx, {
    companyId,
    ticketId,
    promptId: prompt.id,
    // a re-run answers the conversation as it stands (its last customer text is in the history)
    body: first ? input.body : '',
    messageId: first ? input.messageId : undefined,
    mediaType: first ? input.mediaType : undefined,
    settings: {
      prompt: prompt.prompt,
      apiKey,
      baseUrl: prompt.baseUrl,
      model: promptModelId(prompt.model),
      maxTokens: prompt.maxTokens,
      temperature: Number(prompt.temperature),
      maxMessages: prompt.maxMessages,
      queueId: prompt.queueId,
      voice: prompt.voice,
      voiceKey,
      voiceRegion: prompt.voiceRegion,
    },
  });
};

/**
 * The AI stage (reference §2.6 steps 4 and 6, bugs fixed): a ticket no attendant holds whose queue — or,
 * without a queue, whose connection — has a prompt is answered by it, one run at a time per ticket (a
 * message arriving during a run is answered by one more run when it ends, never twice). After a handover
 * the AI leaves the ticket for the rest of its attendance cycle.
 */
export const aiStage: TInboundStage = {
  name: 'ai',
  run: async (ctx, input, now) => {
    const { companyId, ticketId } = input;
    const ticket = await ticketById(ctx.db, companyId, ticketId);
    if (!ticket || ticket.userId || ticket.isGroup) return 'pass';
    const prompt = await promptForTicket(ctx.db, companyId, ticket);
    if (!prompt) return 'pass';
    const state = await readAiState(ctx.db, companyId, ticketId);
    if (
      state.handoverCycle != null &&
      state.handoverCycle === ((await currentTracking(ctx.db, companyId, ticketId))?.id ?? 0)
    ) {
      return 'pass';
    }
    if (!(await claimAiRun(ctx.db, companyId, ticketId, now, new Date(now.getTime() + CLAIM_MS)))) return 'handled';
    let first = true;
    try {
      for (let round = 0; round < 5; round += 1) {
        await runOnce(ctx, input, first);
        first = false;
        if (!(await releaseAiRun(ctx.db, companyId, ticketId))) return 'handled';
        const again = new Date();
        if (!(await claimAiRun(ctx.db, companyId, ticketId, again, new Date(again.getTime() + CLAIM_MS)))) {
          return 'handled';
        }
      }
    } catch (err) {
      ctx.log.error({ err, ticketId }, 'AI stage failed');
    }
    await releaseAiRun(ctx.db, companyId, ticketId).catch(() => undefined);

    return 'handled';
  },
};
