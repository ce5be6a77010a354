import type { TFlowOpenAiSettings, TFlowTypebotSettings } from '@zelo/shared';
import type { TAppContext } from '../../../lib/context';
import { typebotTurn } from '../../queue-integrations/runtime/typebot';

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
  /** `ended`: the bot let the ticket go (finish keyword, stop command, transfer): the run ends */
  typebot: (ctx: TAppContext, call: TFlowTypebotCall) => Promise<'waiting' | 'ended' | undefined>;
};

const notWired = (what: string) => async (ctx: TAppContext, call: { companyId: number; ticketId: number }) => {
  ctx.log.warn({ companyId: call.companyId, ticketId: call.ticketId }, `flow ${what} node: not wired yet`);
};

const num = (v: unknown, fallback: number) => (v === '' || v === null || v === undefined ? fallback : Number(v) || 0);

/** the Typebot node's fields (the integration's names) as the runtime's settings */
export const typebotSettingsOf = (s: TFlowTypebotSettings) => ({
  url: s.urlN8N ?? '',
  slug: s.typebotSlug ?? '',
  expires: num(s.typebotExpires, 0),
  keywordFinish: s.typebotKeywordFinish ?? '',
  keywordRestart: s.typebotKeywordRestart ?? '',
  restartMessage: s.typebotRestartMessage ?? '',
  unknownMessage: s.typebotUnknownMessage ?? '',
  delayMessage: num(s.typebotDelayMessage, 1000),
});

/** replaced in tests (a recorder); the OpenAI node is wired when branch `ai` is merged */
export const flowExternal: TFlowExternal = {
  ai: notWired('OpenAI'),
  typebot: (ctx, call) =>
    typebotTurn(ctx, {
      companyId: call.companyId,
      ticketId: call.ticketId,
      settings: typebotSettingsOf(call.settings),
      body: call.body,
    }),
};
