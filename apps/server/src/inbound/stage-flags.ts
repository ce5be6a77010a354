import type { TDbOrTx } from '../db/client';
import { queryRows } from '../db/statements';
import { phrasesOf } from '../modules/flows/phrase-cache';

/**
 * What the batched fast path asks before skipping the automation of a message (quiet.ts): could one of the
 * automation stages (stages.ts) act? For the connection: its prompt, integration, welcome or no-phrase flow,
 * or an active phrase campaign on it (cached per company and connection). For each ticket: a flow run under
 * way, a ticket held by an integration, or its queue with a prompt or an integration.
 */

export const connectionMayAct = async (
  db: TDbOrTx,
  connection: {
    id: number;
    companyId: number;
    promptId: number | null;
    integrationId: number | null;
    flowIdWelcome: number | null;
    flowIdNotPhrase: number | null;
  },
) =>
  !!(connection.promptId || connection.integrationId || connection.flowIdWelcome || connection.flowIdNotPhrase) ||
  (await phrasesOf(db, connection.companyId, connection.id)).length > 0;

/** the tickets (of these ids) a stage could act on */
export const ticketsStagesMayAct = async (db: TDbOrTx, companyId: number, ticketIds: number[]) =>
  ticketIds.length === 0
    ? new Set<number>()
    : new Set(
        (
          await queryRows<{ id: number }>(
            db,
            `select t.id from tickets t
             left join queues q on q.id = t.queue_id and q.company_id = t.company_id
             where t.company_id = $1 and t.id = any($2::int[])
               and (t.flow_webhook or t.use_integration or q.prompt_id is not null or q.integration_id is not null
                 or exists (select 1 from flow_runs r where r.ticket_id = t.id and r.status in ('running', 'waiting')))`,
            [companyId, ticketIds],
          )
        ).map((r) => Number(r.id)),
      );
