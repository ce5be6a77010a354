import { events, rooms, type TSlaBreachEvent } from '@zelo/shared';
import type { TAppContext } from '../../lib/context';
import { announceTicket } from '../tickets/ticket-announcer';
import {
  claimFirstResponseBreaches,
  claimResolutionBreaches,
  lockDirtyTickets,
  type TBreach,
  writeDueTimes,
} from './sla.repo';
import { dueTimes, effectiveTargets, slaCalendar, targetOfSetting } from './sla-targets';

const BATCH = 200;

const sameTime = (a: Date | null, b: Date | null) => (a === null ? b === null : b !== null && +a === +b);

/**
 * Computes the due times of up to BATCH dirty tickets (locked, so another node takes others); answers those whose
 * due times changed (a new ticket of a company without targets changes nothing: no event for it).
 */
export const computeDirtyDueTimes = async (ctx: Pick<TAppContext, 'db'>) =>
  ctx.db.transaction(async (tx) => {
    const changed: { id: number; companyId: number }[] = [];
    let seen = 0;
    for (const t of await lockDirtyTickets(tx, BATCH)) {
      const cal = slaCalendar({
        scheduleType: t.scheduleType,
        timeZone: t.timeZone,
        companySchedules: t.companySchedules,
        queueSchedules: t.queueSchedules,
      });
      const targets = effectiveTargets(t.queue, {
        firstResponseMinutes: targetOfSetting(t.companyFirstResponse),
        resolutionHours: targetOfSetting(t.companyResolution),
      });
      const due = dueTimes(cal, t.startedAt, targets);
      await writeDueTimes(tx, t.id, due);
      seen += 1;
      if (
        !sameTime(due.firstResponseDueAt, t.firstResponseDueAt) ||
        !sameTime(due.resolutionDueAt, t.resolutionDueAt)
      ) {
        changed.push({ id: t.id, companyId: t.companyId });
      }
    }

    return { seen, changed };
  });

/** the breach to the ticket's agent (or, unassigned, its queue's agents) and the company's admins */
const notify = (ctx: TAppContext, kind: TSlaBreachEvent['kind'], b: TBreach) => {
  const to = [rooms.admins(b.companyId)];
  to.push(b.userId ? rooms.user(b.companyId, b.userId) : rooms.queueNotification(b.companyId, b.queueId));
  const payload: TSlaBreachEvent = {
    action: 'breach',
    kind,
    ticketId: b.id,
    userId: b.userId,
    queueId: b.queueId,
    contactName: b.contactName,
    dueAt: b.dueAt.toISOString(),
  };
  ctx.realtime.to(to, events.sla(b.companyId), payload);
};

/**
 * One check: due times computed for new cycles and changed targets (each ticket announced with them), then every
 * target missed by `now` claimed and notified. A claim stamps the breach in the database, so a breach is notified
 * once however many nodes check.
 */
export const slaPass = async (ctx: TAppContext, now = new Date()) => {
  let computed = 0;
  for (;;) {
    const { seen, changed } = await computeDirtyDueTimes(ctx);
    computed += seen;
    await Promise.all(changed.map((d) => announceTicket(ctx, d.companyId, d.id)));
    if (seen < BATCH) break;
  }
  const breaches: { kind: TSlaBreachEvent['kind']; breach: TBreach }[] = [];
  for (;;) {
    const first = await claimFirstResponseBreaches(ctx.db, now, BATCH);
    for (const b of first) notify(ctx, 'firstResponse', b);
    breaches.push(...first.map((breach) => ({ kind: 'firstResponse' as const, breach })));
    if (first.length < BATCH) break;
  }
  for (;;) {
    const resolution = await claimResolutionBreaches(ctx.db, now, BATCH);
    for (const b of resolution) notify(ctx, 'resolution', b);
    breaches.push(...resolution.map((breach) => ({ kind: 'resolution' as const, breach })));
    if (resolution.length < BATCH) break;
  }

  return { computed, breaches };
};

/** main.ts: a check every `everyMs` (SLA_CHECK_MS) on each node that runs jobs; one pass at a time per node */
export const startSlaTicker = (ctx: TAppContext, everyMs: number) => {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void slaPass(ctx)
      .catch((err) => ctx.log.error({ err }, 'service-level check failed'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();

  return () => clearInterval(timer);
};
