import type { TAppContext } from '../lib/context';
import { flowStage } from '../modules/flows/flow-stage';
import { aiStage } from '../modules/ai/ai-stage';
import { queueIntegrationStage } from '../modules/queue-integrations/runtime/stage';
import type { TAutomationInput } from './automation';

/**
 * The automation stages that run before the classic chain (greeting, queue menu, options tree) for one
 * stored customer message: the flow engine (a parked run resuming, a phrase, a connection's welcome or
 * no-phrase flow), integrations (Typebot, Dialogflow, n8n, webhook, flowbuilder) and the AI. They run in
 * this list's order; the first that answers `handled` ends the message's automation, so the classic chain
 * does not run. A stage that is not concerned answers `pass`.
 *
 * Stages run only for a ticket no attendant holds, not a group, whose contact has the bot enabled, with no
 * rating pending and inside the company's working hours (`scheduleType` = company); `runAutomation` checks
 * that before the first stage. Each stage takes its own per-ticket lock for what it writes.
 */

export type TStageInput = TAutomationInput & {
  /** the stored message's id in `messages` (the one being answered) */
  messageId?: number;
  /** the stored message's media type (`chat`, `audio`, `image`, …) */
  mediaType?: string;
};

export type TStageVerdict = 'handled' | 'pass';

export type TInboundStage = {
  name: string;
  run: (ctx: TAppContext, input: TStageInput, now: Date) => Promise<TStageVerdict>;
};

/**
 * in order; each module adds its own entry: the flow engine first (a run waiting on the ticket takes the
 * message), the AI last (flows and integrations come first)
 */
export const AUTOMATION_STAGES: readonly TInboundStage[] = [flowStage, queueIntegrationStage, aiStage];

/** runs the stages in order; answers whether one handled the message */
export const runStages = async (
  ctx: TAppContext,
  input: TStageInput,
  now: Date,
  stages: readonly TInboundStage[] = AUTOMATION_STAGES,
): Promise<boolean> => {
  for (const stage of stages) {
    try {
      if ((await stage.run(ctx, input, now)) === 'handled') return true;
    } catch (err) {
      // a failing stage is logged and the next one (finally the classic chain) answers
      ctx.log.error({ err, stage: stage.name, ticketId: input.ticketId }, 'automation stage failed');
    }
  }

  return false;
};
