import { DEFAULT_PROMPT_MODEL, type TFlowOpenAiSettings, type TFlowTypebotSettings } from '@zelo/shared';
import type { TAppContext } from '../../../lib/context';
import { answerWithAi, type TAiSettings } from '../../ai/answer';
import { typebotTurn } from '../../queue-integrations/runtime/typebot';

/**
 * The two node handlers that call other modules: the OpenAI node (modules/ai `answerWithAi`) and the Typebot
 * node (modules/queue-integrations/runtime `typebotTurn`); the engine calls nothing else for them.
 * Secrets in `settings` arrive opened (the stored flow keeps them sealed).
 */

export type TFlowAiCall = {
  companyId: number;
  ticketId: number;
  settings: TFlowOpenAiSettings;
  body: string;
  messageId?: number;
  mediaType?: string;
  /** the failure note the AI wrote on the ticket, for the test panel */
  onFailure?: (note: string) => void;
};

export type TFlowTypebotCall = {
  companyId: number;
  ticketId: number;
  settings: TFlowTypebotSettings;
  body: string;
};

export type TFlowExternal = {
  /** `handover`: the AI gave the ticket to a queue (the run ends) */
  ai: (ctx: TAppContext, call: TFlowAiCall) => Promise<'answered' | 'handover' | 'failed' | undefined>;
  /** `ended`: the bot let the ticket go (finish keyword, stop command, transfer): the run ends */
  typebot: (ctx: TAppContext, call: TFlowTypebotCall) => Promise<'waiting' | 'ended' | undefined>;
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

/** the OpenAI node's fields (opened) as the AI's settings, with the prompts' defaults */
export const aiSettingsOf = (s: TFlowOpenAiSettings): TAiSettings => ({
  prompt: s.prompt ?? '',
  apiKey: s.apiKey ?? '',
  baseUrl: s.baseUrl || null,
  model: s.model || DEFAULT_PROMPT_MODEL,
  maxTokens: num(s.maxTokens, 100) || 100,
  temperature: num(s.temperature, 1),
  maxMessages: num(s.maxMessages, 10),
  queueId: typeof s.queueId === 'number' ? s.queueId : null,
  voice: s.voice ?? 'texto',
  voiceKey: s.voiceKey ?? '',
  voiceRegion: s.voiceRegion ?? '',
});

/** replaced in tests (a recorder) */
export const flowExternal: TFlowExternal = {
  ai: (ctx, call) =>
    answerWithAi(ctx, {
      companyId: call.companyId,
      ticketId: call.ticketId,
      settings: aiSettingsOf(call.settings),
      body: call.body,
      messageId: call.messageId,
      mediaType: call.mediaType,
      speak: true,
      onFailure: call.onFailure,
    }),
  typebot: (ctx, call) =>
    typebotTurn(ctx, {
      companyId: call.companyId,
      ticketId: call.ticketId,
      settings: typebotSettingsOf(call.settings),
      body: call.body,
    }),
};
