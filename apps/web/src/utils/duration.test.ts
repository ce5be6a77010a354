import { describe, expect, it } from 'vitest';
import { formatSeconds } from './duration';

describe('formatSeconds', () => {
  it('writes a duration in its two largest units', () => {
    expect(formatSeconds(0)).toBe('0 s');
    expect(formatSeconds(45.4)).toBe('45 s');
    expect(formatSeconds(180)).toBe('3 min');
    expect(formatSeconds(200)).toBe('3 min 20 s');
    expect(formatSeconds(7200)).toBe('2 h');
    expect(formatSeconds(7500)).toBe('2 h 05 min');
    expect(formatSeconds(7529)).toBe('2 h 05 min');
    expect(formatSeconds(86_400)).toBe('1 d');
    expect(formatSeconds(100_800)).toBe('1 d 4 h');
    expect(formatSeconds(40 * 86_400 + 3_600)).toBe('40 d 1 h');
  });

  it('says nothing was measured with a dash', () => {
    expect(formatSeconds(null)).toBe('—');
    expect(formatSeconds(undefined)).toBe('—');
    expect(formatSeconds(Number.NaN)).toBe('—');
  });
});
