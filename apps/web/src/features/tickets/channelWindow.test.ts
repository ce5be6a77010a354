import { describe, expect, it } from 'vitest';
import { formatTimeLeft, windowState } from './channelWindow';

const NOW = Date.parse('2025-03-10T12:00:00Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();

describe('windowState', () => {
  it('shows nothing when no window applies or the server had no answer (route missing)', () => {
    expect(windowState(null, NOW)).toEqual({ state: 'none' });
    expect(windowState(undefined, NOW)).toEqual({ state: 'none' });
    expect(windowState({ provider: 'sandbox', applies: false, open: true, expiresAt: null }, NOW)).toEqual({
      state: 'none',
    });
  });

  it('is closed when the server says so or the time is up, open with the time left otherwise', () => {
    expect(windowState({ provider: 'cloud-api', applies: true, open: false, expiresAt: null }, NOW).state).toBe(
      'closed',
    );
    expect(windowState({ provider: 'cloud-api', applies: true, open: true, expiresAt: at(-1000) }, NOW).state).toBe(
      'closed',
    );
    expect(windowState({ provider: 'cloud-api', applies: true, open: true, expiresAt: at(90 * 60_000) }, NOW)).toEqual({
      state: 'open',
      msLeft: 90 * 60_000,
    });
  });
});

describe('formatTimeLeft', () => {
  it("reads 'HHh MMm', or minutes under an hour, never below one minute", () => {
    expect(formatTimeLeft(23 * 3_600_000 + 5 * 60_000)).toBe('23h 05m');
    expect(formatTimeLeft(59 * 60_000 + 59_000)).toBe('59m');
    expect(formatTimeLeft(10_000)).toBe('01m');
  });
});
