import type { TDb } from '../../db/client';
import type { TAppContext } from '../../lib/context';
import { sendTicketText } from '../messages/send-message';
import { readSetting } from '../settings/settings.service';
import { acceptGreeting, acceptGreetingClientId } from '../tickets/automatic-texts';
import { announceTicket, type TTicketPlace } from '../tickets/ticket-announcer';
import { companyBasics, findTicketPlain } from '../tickets/tickets.repo';
import {
  applyAssignments,
  availableAgents,
  companiesWithAutoAssign,
  lockCompanyAssignment,
  lockWaitingTickets,
  type TAgentLoad,
  type TAssignment,
  type TWaitingTicket,
} from './assignment.repo';

/**
 * Fair automatic assignment (issue 25 item 4), per queue and off by default (`queues.auto_assign`).
 *
 * **Which tickets.** One that waits in an auto-assign queue for a person: pending, no user, no options menu
 * talking, no integration, flow or AI holding the conversation (assignment.repo `lockWaitingTickets`); the
 * longest waiting (since its cycle entered the queue) goes first. A new ticket that the bot puts in the
 * queue, one transferred or returned to it, one an AI hands over, a reopened one: all the same.
 *
 * **Which agent.** A member of that queue who is online (a socket open: realtime.ts presence; a login alone
 * is not) and not paused (`users.away`), holding fewer open tickets (all queues) than the queue's
 * `autoAssignMax`; the fewest open tickets wins, ties go to the one whose last automatic assignment is
 * oldest (never first), then the lower id. Nobody free: the ticket waits.
 *
 * **When.** `kick(companyId)` drains the company's waiting tickets on this node: on every announced ticket
 * move that leaves a ticket waiting in a queue or frees an agent's place (ticket-announcer.ts calls
 * `ticketMoved`), after every customer message's automation (a leaf option or a flow's end may leave the
 * ticket waiting without a move), when an agent's socket connects, an agent resumes, a user's queues or a
 * queue's switch or cap change; and a sweep every `sweepMs` on each node as the net under all of these.
 * Kicks for companies with no auto-assign queue cost nothing (the set is re-read every `refreshMs` and
 * updated at once by queue saves on this node). Kicks during a drain make it go round once more.
 *
 * **Exactly once across nodes.** Each round is one transaction that first takes the company's advisory
 * lock (`pg_advisory_xact_lock(72440, companyId)`), so rounds of one company never interleave on any node:
 * the counts and caps read are those every earlier round committed. Per company rather than per queue
 * because an agent serves several queues and is capped on all its open tickets. The waiting tickets are
 * also locked `for update skip locked` and moved by a conditional update (pending, no user), so a person's
 * accept at the same moment either waits for the round (and then finds the ticket taken) or wins first (and
 * the round skips it). A round decides up to `BATCH` tickets at once (each decision sees the earlier ones'
 * counts), commits, then announces each ticket exactly as an accept does (a `moved` delete from the pending
 * rooms, the update to its new rooms) and sends the accept greeting when `sendGreetingAccepted` is on. The
 * messages stay unread (nobody read them yet).
 */

export type TAssigner = {
  kick: (companyId: number) => void;
  /** an announced ticket change: kicks when the ticket now waits in a queue or its agent let it go */
  ticketMoved: (companyId: number, now: TTicketPlace, previous?: TTicketPlace) => void;
  /** a queue was saved on this node: the company's switch is known here at once */
  queueSaved: (companyId: number, autoAssign: boolean) => void;
  /** one sweep: re-reads which companies assign automatically and kicks each */
  sweep: () => Promise<void>;
  /** resolves once no drain runs on this node (tests, bench) */
  settled: () => Promise<void>;
  start: () => void;
  stop: () => Promise<void>;
};

export type TAssignerOptions = {
  sweepMs?: number;
  refreshMs?: number;
  now?: () => Date;
  /** each committed round (bench: the decision's time; tests) */
  onRound?: (round: { companyId: number; assigned: TAssignment[]; ms: number }) => void;
};

/** tickets decided per round (one transaction) */
export const BATCH = 20;

/** the better of two agents for the next ticket: fewer open tickets, then the oldest last assignment, then id */
const better = (a: TAgentLoad, b: TAgentLoad) => {
  if (a.open !== b.open) return a.open < b.open;
  const at = a.lastAssignedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  const bt = b.lastAssignedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  if (at !== bt) return at < bt;

  return a.id < b.id;
};

/**
 * The round's decisions, in waiting order: each ticket to the best agent of its queue under the queue's cap,
 * each decision counted before the next (an agent's count goes up, its last assignment becomes the latest).
 * Pure: the agents' loads are copied.
 */
export const pickAssignments = (waiting: TWaitingTicket[], agents: TAgentLoad[], now: Date): TAssignment[] => {
  const loads = agents.map((a) => ({ ...a, lastAssignedAt: a.lastAssignedAt ? new Date(a.lastAssignedAt) : null }));
  const out: TAssignment[] = [];
  let tick = 0;
  for (const ticket of waiting) {
    let best: (typeof loads)[number] | null = null;
    for (const agent of loads) {
      if (agent.open >= ticket.max || !agent.queueIds.includes(ticket.queueId)) continue;
      if (!best || better(agent, best)) best = agent;
    }
    if (!best) continue;
    // within a round each later decision is a little later, so the tie-break keeps rotating
    const at = new Date(now.getTime() + tick++);
    best.open += 1;
    best.lastAssignedAt = at;
    out.push({ ticketId: ticket.id, userId: best.id, userName: best.name, queueId: ticket.queueId, at });
  }

  return out;
};

/** the queues one of these agents could take a ticket of now (below that queue's cap) */
export const queuesWithRoom = (agents: TAgentLoad[]) => {
  const open = new Set<number>();
  for (const a of agents) {
    a.queueIds.forEach((q, i) => {
      if (a.open < (a.maxes[i] ?? 0)) open.add(q);
    });
  }

  return [...open];
};

/**
 * One round, the exactly-once part: in one transaction, the company's advisory lock, its waiting tickets
 * (locked, skip locked), the available agents, the decisions and their writes. Answers what it committed and
 * whether a full batch means more may wait. Exported for the two-process test (test/assignment-worker.ts).
 */
export const assignRound = async (db: TDb, companyId: number, at: Date, batch = BATCH) =>
  db.transaction(async (tx) => {
    await lockCompanyAssignment(tx, companyId);
    const agents = await availableAgents(tx, companyId);
    const open = queuesWithRoom(agents);
    if (open.length === 0) return { assigned: [] as TAssignment[], full: false };
    const waiting = await lockWaitingTickets(tx, companyId, open, batch);
    const decided = pickAssignments(waiting, agents, at);

    return {
      assigned: await applyAssignments(tx, companyId, decided, at),
      // a full round may have left more waiting behind it
      full: waiting.length === batch && decided.length > 0,
    };
  });

export const createAssigner = (ctx: TAppContext, opts: TAssignerOptions = {}): TAssigner => {
  const now = opts.now ?? (() => new Date());
  const sweepMs = opts.sweepMs ?? 30_000;
  const refreshMs = opts.refreshMs ?? 10_000;
  /** companies with an auto-assign queue (null until first read: every kick is tried) */
  let enabled: Set<number> | null = null;
  let readAt = 0;
  const running = new Map<number, { again: boolean; done: Promise<void> }>();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  const refresh = async () => {
    const ids = await companiesWithAutoAssign(ctx.db);
    enabled = new Set(ids);
    readAt = Date.now();

    return ids;
  };

  /** one round, timed */
  const round = async (companyId: number) => {
    const started = performance.now();
    const result = await assignRound(ctx.db, companyId, now());
    opts.onRound?.({ companyId, assigned: result.assigned, ms: performance.now() - started });

    return result;
  };

  /** what an accept does after its commit: the events, then the greeting (a failed send undoes nothing) */
  const afterCommit = async (companyId: number, assigned: TAssignment[]) => {
    if (assigned.length === 0) return;
    for (const a of assigned) {
      await announceTicket(ctx, companyId, a.ticketId, { status: 'pending', queueId: a.queueId, userId: null });
    }
    if ((await readSetting(ctx.db, companyId, 'sendGreetingAccepted')) !== 'enabled') return;
    const language = (await companyBasics(ctx.db, companyId))?.language;
    for (const a of assigned) {
      try {
        const ticket = await findTicketPlain(ctx.db, companyId, a.ticketId);
        if (!ticket || ticket.isGroup || ticket.userId !== a.userId) continue;
        await sendTicketText(ctx, {
          companyId,
          ticketId: a.ticketId,
          body: acceptGreeting(language, a.userName),
          source: 'system',
          clientId: acceptGreetingClientId(a.ticketId),
        });
      } catch (err) {
        ctx.log.warn({ err, ticketId: a.ticketId }, 'assignment greeting not sent');
      }
    }
  };

  const drain = async (companyId: number, state: { again: boolean }) => {
    for (;;) {
      state.again = false;
      const { assigned, full } = await round(companyId);
      await afterCommit(companyId, assigned);
      if (!full && !state.again) return;
    }
  };

  const kick: TAssigner['kick'] = (companyId) => {
    if (stopped) return;
    if (enabled && !enabled.has(companyId)) {
      // a switch turned on at another node: read again once refreshMs passed (else the sweep catches up)
      if (Date.now() - readAt > refreshMs) {
        readAt = Date.now();
        void refresh()
          .then(() => enabled?.has(companyId) && kick(companyId))
          .catch(() => undefined);
      }
      return;
    }
    const current = running.get(companyId);
    if (current) {
      current.again = true;
      return;
    }
    const state = { again: false, done: Promise.resolve() };
    running.set(companyId, state);
    state.done = (async () => {
      // after the caller's own work (its announcement, its answer)
      await new Promise((resume) => setImmediate(resume));
      try {
        await drain(companyId, state);
      } catch (err) {
        ctx.log.error({ err, companyId }, 'automatic assignment failed');
      } finally {
        running.delete(companyId);
      }
    })();
  };

  const ticketMoved: TAssigner['ticketMoved'] = (companyId, ticket, previous) => {
    const waits = ticket.status === 'pending' && ticket.queueId !== null && ticket.userId === null;
    const freed =
      previous?.status === 'open' &&
      previous.userId !== null &&
      !(ticket.status === 'open' && ticket.userId === previous.userId);
    if (waits || freed) kick(companyId);
  };

  const sweep = async () => {
    for (const companyId of await refresh()) kick(companyId);
  };

  return {
    kick,
    ticketMoved,
    queueSaved: (companyId, autoAssign) => {
      if (autoAssign) enabled?.add(companyId);
      kick(companyId);
    },
    sweep,
    settled: async () => {
      while (running.size > 0) await Promise.all([...running.values()].map((r) => r.done));
    },
    start: () => {
      const tick = () => void sweep().catch((err) => ctx.log.warn({ err }, 'automatic assignment sweep failed'));
      tick();
      const timer = setInterval(tick, sweepMs);
      timer.unref();
      timers.push(timer);
    },
    stop: async () => {
      stopped = true;
      for (const t of timers) clearInterval(t);
      while (running.size > 0) await Promise.all([...running.values()].map((r) => r.done));
    },
  };
};
