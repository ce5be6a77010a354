import type { TDbOrTx } from '../../db/client';
import { queryRows } from '../../db/statements';

/**
 * The SQL of fair automatic assignment (assigner.ts has the rules). Every statement is scoped by company and
 * runs inside the transaction that holds the company's assignment lock (`lockCompanyAssignment`).
 */

/** the advisory-lock namespace of automatic assignment (the second key is the company id) */
export const ASSIGNMENT_LOCK = 72440;

/**
 * Serialises the company's assignment decisions across every node until the transaction ends. Per company,
 * not per queue: an agent serves several queues and the count and cap are of all its open tickets, so two
 * queues deciding at once could both hand the same agent its last free place.
 */
export const lockCompanyAssignment = async (db: TDbOrTx, companyId: number) => {
  await queryRows(db, 'select pg_advisory_xact_lock($1::int, $2::int)', [ASSIGNMENT_LOCK, companyId]);
};

export type TWaitingTicket = { id: number; queueId: number; max: number };

/**
 * The company's tickets that wait in one of these auto-assign queues (those with an agent free: a full queue
 * never holds up another's tickets) for a person, longest waiting first (since their cycle entered the queue),
 * locked: pending, nobody holds it, no options menu still talking (`chatbot`), no
 * integration or flow holding the conversation, and no AI answering it (the queue's prompt counts while the
 * plan has `useOpenAi`, until the AI hands the current cycle over). Rows another transaction holds are
 * skipped: their change is announced and kicks assignment again.
 */
export const lockWaitingTickets = (db: TDbOrTx, companyId: number, queueIds: number[], limit: number) =>
  queryRows<TWaitingTicket>(
    db,
    `select t.id, t.queue_id as "queueId", q.auto_assign_max as "max"
     from tickets t
     join queues q on q.id = t.queue_id and q.company_id = t.company_id
     left join ticket_trackings c on c.ticket_id = t.id and c.company_id = t.company_id and c.finished_at is null
     where t.company_id = $1 and t.status = 'pending' and t.user_id is null and q.auto_assign
       and t.queue_id = any($3::int[])
       and not t.chatbot and not t.use_integration and not t.flow_webhook
       and (q.prompt_id is null
         or not coalesce((select p.use_open_ai from companies co join plans p on p.id = co.plan_id
                          where co.id = $1), false)
         or t.data_webhook #>> '{ai,handoverCycle}' = c.id::text)
       and not exists (select 1 from flow_runs r where r.ticket_id = t.id and r.status in ('running', 'waiting'))
     order by coalesce(c.queued_at, t.created_at), t.id
     limit $2
     for update of t skip locked`,
    [companyId, limit, queueIds],
  );

export type TAgentLoad = {
  id: number;
  name: string;
  lastAssignedAt: Date | null;
  /** its auto-assign queues, and each one's cap at the same index */
  queueIds: number[];
  maxes: number[];
  open: number;
};

/**
 * the members of the company's auto-assign queues who may take a ticket now (online, not away), with their
 * open tickets counted (all queues)
 */
export const availableAgents = (db: TDbOrTx, companyId: number) =>
  queryRows<TAgentLoad>(
    db,
    `select u.id, u.name, u.last_assigned_at as "lastAssignedAt", array_agg(q.id) as "queueIds",
       array_agg(q.auto_assign_max) as "maxes",
       (select count(*)::int from tickets o where o.company_id = $1 and o.user_id = u.id and o.status = 'open')
         as "open"
     from users u
     join user_queues uq on uq.user_id = u.id and uq.company_id = $1
     join queues q on q.id = uq.queue_id and q.company_id = $1 and q.auto_assign
     where u.company_id = $1 and u.online and not u.away
     group by u.id`,
    [companyId],
  );

export type TAssignment = { ticketId: number; userId: number; userName: string; queueId: number; at: Date };

/**
 * Writes the decisions as an accept writes them (ticket open with the agent, the bot's state cleared; the
 * cycle started by that agent; a ticket without a current cycle — rows older than the tracking — gets one,
 * started now) and each agent's last assignment, in one statement (its parts see the same snapshot: the
 * cycle insert's "no current cycle" test is not affected by the cycle update beside it). Answers the tickets
 * really moved (all of them, as they are locked; a conditional update all the same).
 */
export const applyAssignments = async (db: TDbOrTx, companyId: number, list: TAssignment[], now: Date) => {
  if (list.length === 0) return [];
  const moved = await queryRows<{ id: number }>(
    db,
    `with a as (
       select * from unnest($1::int[], $2::int[], $3::timestamptz[]) as a(ticket_id, user_id, at)
     ), moved as (
       update tickets t set status = 'open', user_id = a.user_id, chatbot = false, queue_option_id = null,
         updated_at = $4
       from a
       where t.company_id = $5 and t.id = a.ticket_id and t.status = 'pending' and t.user_id is null
       returning t.id, t.user_id, t.whatsapp_id, t.queue_id, a.at
     ), cycles as (
       update ticket_trackings c set started_at = $4, user_id = m.user_id, rating_at = null, rated = false,
         updated_at = $4
       from moved m
       where c.company_id = $5 and c.ticket_id = m.id and c.finished_at is null
     ), new_cycles as (
       insert into ticket_trackings (company_id, ticket_id, whatsapp_id, queue_id, user_id, queued_at, started_at)
       select $5, m.id, m.whatsapp_id, m.queue_id, m.user_id, $4, $4 from moved m
       where not exists (select 1 from ticket_trackings c where c.ticket_id = m.id and c.finished_at is null)
       on conflict do nothing
     ), agents as (
       update users u set last_assigned_at = l.at
       from (select user_id, max(at) as at from moved group by user_id) l
       where u.company_id = $5 and u.id = l.user_id
     )
     select id from moved`,
    [list.map((a) => a.ticketId), list.map((a) => a.userId), list.map((a) => a.at), now, companyId],
  );
  const done = new Set(moved.map((r) => Number(r.id)));

  return list.filter((a) => done.has(a.ticketId));
};

/** companies that have at least one queue with automatic assignment on */
export const companiesWithAutoAssign = async (db: TDbOrTx) =>
  (
    await queryRows<{ companyId: number }>(
      db,
      'select distinct company_id as "companyId" from queues where auto_assign',
      [],
    )
  ).map((r) => Number(r.companyId));

/** the user's pause switch; answers the user's presence as stored, or null for no such user of the company */
export const setAway = async (db: TDbOrTx, companyId: number, userId: number, away: boolean) =>
  (
    await queryRows<{ id: number; away: boolean; online: boolean }>(
      db,
      'update users set away = $3, updated_at = now() where company_id = $1 and id = $2 returning id, away, online',
      [companyId, userId, away],
    )
  )[0] ?? null;
