import { basename } from 'node:path';
import { events, rooms, type TFlowRunStepEvent } from '@zelo/shared';
import { setTimeout as sleep } from 'node:timers/promises';
import { patchTicket } from '../../../inbound/inbound.repo';
import { AppError } from '../../../http/errors';
import type { TAppContext } from '../../../lib/context';
import { readMediaFile } from '../../messages/media';
import { sendTicketMedia, sendTicketText } from '../../messages/send-message';
import { applyNamedVariables } from '../../messages/variables';
import { openSettings } from '../flow-secrets';
import { uploadsOfCompany } from '../flows.repo';
import { flowExternal } from './external';
import { endActiveRuns } from './runs.repo';
import type { TAction } from './walk';

/**
 * The sends of one engine step, in order, through the ticket's own connection (the messages service with
 * `source: 'bot'`): texts with every `{{variable}}` filled by the one substitution module, media read from
 * the flow's uploads (a recorded audio goes as a voice note), pauses, and the OpenAI / Typebot turns.
 * A connection that is not connected stops the rest; any other failed send is logged and the next goes.
 */
/** ends the ticket's run (a bot let the ticket go) and clears its flow mark */
export const endRuns = async (ctx: TAppContext, companyId: number, ticketId: number, reason: string) => {
  await ctx.db.transaction(async (tx) => {
    await endActiveRuns(tx, companyId, ticketId, reason);
    await patchTicket(tx, companyId, ticketId, { flowWebhook: false });
  });
};

/** an OpenAI node that failed: its node marked failed with the note, on the run's event (the test panel shows it) */
const announceAiFailure = (
  ctx: TAppContext,
  run: { id?: number; flowId?: number | null; companyId: number; ticketId: number },
  nodeId: string,
  variables: Record<string, string>,
  note: string,
) => {
  if (!run.id) return;
  const payload: TFlowRunStepEvent = {
    runId: run.id,
    flowId: run.flowId ?? 0,
    ticketId: run.ticketId,
    nodeId,
    nodeType: 'openai',
    status: 'failed',
    variables,
    reason: note,
    at: new Date().toISOString(),
  };
  ctx.realtime.to(rooms.admins(run.companyId), events.flowRun(run.companyId), payload);
};

export const performActions = async (
  ctx: TAppContext,
  run: { id?: number; flowId?: number | null; companyId: number; ticketId: number },
  actions: TAction[],
  variables: Record<string, string>,
  extra: { messageId?: number; mediaType?: string },
) => {
  if (actions.length === 0) return;
  const { companyId, ticketId } = run;
  for (const action of actions) {
    try {
      switch (action.type) {
        case 'sleep':
          await sleep(action.ms);
          break;
        case 'text':
          // the flow's answers here; the contact's name, greeting, protocol by sendTicketText's own pass
          await sendTicketText(ctx, {
            companyId,
            ticketId,
            body: applyNamedVariables(action.body, variables),
            source: 'bot',
          });
          break;
        case 'media': {
          const name = basename(action.file.split('?')[0] ?? '');
          // a flow sends only its company's own uploads
          if (!(await uploadsOfCompany(ctx.db, companyId, [name])).has(name)) {
            ctx.log.warn({ companyId, ticketId, file: name }, 'flow media is not an upload of the company');
            break;
          }
          const data = await readMediaFile(ctx.config, name);
          // the messages service makes a voice note of a recording whose name says so
          const fileName = action.record && action.kind === 'audio' ? `audio-record-${name}` : name;
          await sendTicketMedia(ctx, {
            companyId,
            ticketId,
            files: [{ data, mimetype: '', fileName }],
            bodies: [''],
            source: 'bot',
          });
          break;
        }
        case 'ai':
          if (
            (await flowExternal.ai(ctx, {
              companyId,
              ticketId,
              settings: openSettings(ctx.config, action.settings),
              body: action.body,
              messageId: extra.messageId,
              mediaType: extra.mediaType,
              onFailure: (note) => announceAiFailure(ctx, run, action.nodeId, variables, note),
            })) === 'handover'
          ) {
            await endRuns(ctx, companyId, ticketId, 'handover');
          }
          break;
        case 'typebot':
          if (
            (await flowExternal.typebot(ctx, { companyId, ticketId, settings: action.settings, body: action.body })) ===
            'ended'
          ) {
            await endRuns(ctx, companyId, ticketId, 'typebot-ended');
          }
          break;
      }
    } catch (err) {
      ctx.log.warn({ err, companyId, ticketId, action: action.type }, 'flow action failed');
      if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') break;
    }
  }
};
