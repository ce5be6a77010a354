import type { TFlowOpenAiSettings, TFlowTypebotSettings } from '@zelo/shared';
import type { TAppContext } from '../../../lib/context';

/**
 * The two node handlers that call other modules: the OpenAI node (modules/ai `answerWithAi`, branch `ai`)
 * and the Typebot node (modules/queue-integrations/runtime `typebotTurn`, branch `integrations`). Until those
 * are merged, these are the ONE place to wire them; the engine calls nothing else for them.
 * Secrets in `settings` arrive opened (the stored flow keeps them sealed).
 */

export type TFlowAiCall = {
  companyId: number;
  ticketId: number;
  settings: TFlowOpenAiSettings;
  body: string;
  messageId?: number;
  mediaType?: string;
};

export type TFlowTypebotCall = {
  companyId: number;
  ticketId: number;
  settings: TFlowTypebotSettings;
  body: string;
};

export type TFlowExternal = {
  ai: (ctx: TAppContext, call: TFlowAiCall) => Promise<void>;
  typebot: (ctx: TAppContext, call: TFlowTypebotCall) => Promise<void>;
};

const notWired = (what: string) => async (ctx: TAppContext, call: { companyId: number; ticketId: number }) => {
  ctx.log.warn({ companyId: call.companyId, ticketId: call.ticketId }, `flow ${what} node: not wired yet`);
};

/** replaced in tests (a recorder) and at merge (the real functions) */
export const flowExternal: TFlowExternal = {
  ai: notWired('OpenAI'),
  typebot: notWired('Typebot'),
};
