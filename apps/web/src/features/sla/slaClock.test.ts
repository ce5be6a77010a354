import { describe, expect, it } from 'vitest';
import { formatRemaining, slaState } from './slaClock';

const start = Date.parse('2026-11-27T12:00:00Z');
const sla = (over: Partial<Record<string, string | null>> = {}) => ({
  startedAt: '2026-11-27T12:00:00.000Z',
  firstResponseDueAt: '2026-11-27T13:40:00.000Z',
  firstResponseAt: null,
  resolutionDueAt: '2026-11-28T12:00:00.000Z',
  ...over,
});

describe('the service-level clock of a ticket', () => {
  it('counts the first response until one is given, amber in its last 20 %, red past it', () => {
    const ticket = { status: 'open', sla: sla() };
    expect(slaState(ticket, start + 60 * 60_000)).toMatchObject({ kind: 'firstResponse', level: 'ok' });
    // 100 min target: amber with 20 min (or less) left
    expect(slaState(ticket, start + 80 * 60_000)?.level).toBe('warn');
    expect(slaState(ticket, start + 79 * 60_000)?.level).toBe('ok');
    const past = slaState(ticket, start + 101 * 60_000);
    expect(past).toMatchObject({ level: 'breached', remainingMs: -60_000 });
  });

  it('then the resolution; nothing for a closed ticket or one without targets', () => {
    const answered = { status: 'open', sla: sla({ firstResponseAt: '2026-11-27T12:05:00.000Z' }) };
    expect(slaState(answered, start + 200 * 60_000)).toMatchObject({ kind: 'resolution', level: 'ok' });
    expect(slaState({ status: 'closed', sla: sla() }, start)).toBeNull();
    expect(
      slaState({ status: 'open', sla: sla({ firstResponseDueAt: null, resolutionDueAt: null }) }, start),
    ).toBeNull();
    expect(slaState({ status: 'open' }, start)).toBeNull();
  });

  it('formats what is left', () => {
    expect(formatRemaining(45 * 60_000)).toBe('45 min');
    expect(formatRemaining(-(3 * 60 + 5) * 60_000)).toBe('3 h 05');
    expect(formatRemaining(52 * 3_600_000)).toBe('2 d 4 h');
  });
});
