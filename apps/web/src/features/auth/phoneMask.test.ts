import { describe, expect, it } from 'vitest';
import { daysUntil, formatDate } from '../../utils/date';
import { maskPhone } from './phoneMask';

describe('maskPhone', () => {
  it('formats as the digits arrive', () => {
    expect(maskPhone('')).toBe('');
    expect(maskPhone('1')).toBe('(1');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('1198765432')).toBe('(11) 9876-5432');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('(11) 98765-43219999')).toBe('(11) 98765-4321');
  });
});

describe('dates', () => {
  it('formats dd/MM/yyyy without time-zone shifts', () => {
    expect(formatDate('2093-01-05')).toBe('05/01/2093');
    expect(formatDate('2093-01-05T00:00:00.000Z')).toBe('05/01/2093');
    expect(formatDate(null)).toBe('');
  });
  it('counts days to a due date', () => {
    const now = new Date(2025, 0, 10, 15, 30);
    expect(daysUntil('2025-01-13', now)).toBe(3);
    expect(daysUntil('2025-01-10', now)).toBe(0);
    expect(daysUntil('2025-01-08', now)).toBe(-2);
  });
});
