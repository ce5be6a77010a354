import type { TTicketSla } from '@zelo/shared';

/**
 * The service-level clock of a ticket, counted on the client from the due times its list row carries (the
 * server computes them once per cycle in business hours; modules/sla). The target shown is the first response
 * while none was given, then the resolution. Levels: `ok`; `warn` (amber) when at most WARN_SHARE of the
 * target's span (cycle start → due, on the wall clock) is left; `breached` (red) from the due time on.
 */
export const WARN_SHARE = 0.2;

export type TSlaLevel = 'ok' | 'warn' | 'breached';
export type TSlaState = {
  kind: 'firstResponse' | 'resolution';
  dueAt: number;
  /** negative once past */
  remainingMs: number;
  level: TSlaLevel;
};

export const slaState = (ticket: { status: string; sla?: TTicketSla | null }, now: number): TSlaState | null => {
  const sla = ticket.sla;
  if (!sla || ticket.status === 'closed') {
    return null;
  }
  const pick = (): [TSlaState['kind'], string] | null => {
    if (!sla.firstResponseAt && sla.firstResponseDueAt) {
      return ['firstResponse', sla.firstResponseDueAt];
    }
    return sla.resolutionDueAt ? ['resolution', sla.resolutionDueAt] : null;
  };
  const picked = pick();
  if (!picked) {
    return null;
  }
  const [kind, due] = picked;
  const dueAt = Date.parse(due);
  const startedAt = sla.startedAt ? Date.parse(sla.startedAt) : dueAt;
  const remainingMs = dueAt - now;
  const span = Math.max(1, dueAt - startedAt);
  const level: TSlaLevel = remainingMs <= 0 ? 'breached' : remainingMs <= span * WARN_SHARE ? 'warn' : 'ok';

  return { kind, dueAt, remainingMs, level };
};

/** "45 min", "3 h 05", "2 d 4 h" for a duration (its sign ignored) */
export const formatRemaining = (ms: number) => {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  if (minutes < 60) {
    return `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  if (hours < 48) {
    return `${hours} h ${String(minutes % 60).padStart(2, '0')}`;
  }
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
};
