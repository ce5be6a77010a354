import { describe, expect, it } from 'vitest';
import { dashboardParams, formatMinutes } from './format';

describe('dashboard format', () => {
  it('shows minutes as HHh MMm, past a day and a month too', () => {
    expect(formatMinutes(0)).toBe('00h 00m');
    expect(formatMinutes(16.6)).toBe('00h 17m');
    expect(formatMinutes(125)).toBe('02h 05m');
    expect(formatMinutes(25 * 60 + 1)).toBe('25h 01m');
    expect(formatMinutes(50_400)).toBe('840h 00m');
    expect(formatMinutes(Number.NaN)).toBe('00h 00m');
  });

  it('builds the query of a filter, null when nothing is set', () => {
    expect(dashboardParams({ kind: 'period', days: 0 })).toBeNull();
    expect(dashboardParams({ kind: 'period', days: 7 })).toEqual({ days: '7' });
    expect(dashboardParams({ kind: 'date', from: '', to: '' })).toBeNull();
    expect(dashboardParams({ kind: 'date', from: '2025-03-01', to: '' })).toEqual({ date_from: '2025-03-01' });
    expect(dashboardParams({ kind: 'date', from: '2025-03-01', to: '2025-03-10' })).toEqual({
      date_from: '2025-03-01',
      date_to: '2025-03-10',
    });
  });
});
