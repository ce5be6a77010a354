import { describe, expect, it } from 'vitest';
import { addMonthsToDate, daysToDueDate, dueDateTone, formatDateOnly } from './dueDate';

const now = new Date(2025, 0, 10, 15, 30);

describe('daysToDueDate', () => {
  it('should count whole calendar days from today when the date is valid', () => {
    expect(daysToDueDate('2025-01-15', now)).toBe(5);
    expect(daysToDueDate('2025-01-10', now)).toBe(0);
    expect(daysToDueDate('2025-01-06T00:00:00.000Z', now)).toBe(-4);
  });

  it('should answer null when the date is empty or invalid', () => {
    expect(daysToDueDate(null, now)).toBeNull();
    expect(daysToDueDate('', now)).toBeNull();
    expect(daysToDueDate('31/01/2025', now)).toBeNull();
  });
});

describe('dueDateTone', () => {
  it('should follow the spec boundaries: yellow at 5, orange from -3 to 4, red at -4 or less', () => {
    expect(dueDateTone(6)).toBeNull();
    expect(dueDateTone(5)).toBe('yellow');
    expect(dueDateTone(4)).toBe('orange');
    expect(dueDateTone(0)).toBe('orange');
    expect(dueDateTone(-3)).toBe('orange');
    expect(dueDateTone(-4)).toBe('red');
    expect(dueDateTone(-400)).toBe('red');
    expect(dueDateTone(null)).toBeNull();
  });
});

describe('addMonthsToDate', () => {
  it('should move the date by whole months and clamp the day to the month length', () => {
    expect(addMonthsToDate('2025-01-15', 1, now)).toBe('2025-02-15');
    expect(addMonthsToDate('2024-01-31', 1, now)).toBe('2024-02-29');
    expect(addMonthsToDate('2024-11-30', 3, now)).toBe('2025-02-28');
    expect(addMonthsToDate('2024-06-10', 12, now)).toBe('2025-06-10');
  });

  it('should start from today when the due date is empty or invalid', () => {
    expect(addMonthsToDate(null, 2, now)).toBe('2025-03-10');
    expect(addMonthsToDate('garbage', 6, now)).toBe('2025-07-10');
  });
});

describe('formatDateOnly', () => {
  it('should show dd/MM/yyyy and nothing for an empty value', () => {
    expect(formatDateOnly('2099-12-31')).toBe('31/12/2099');
    expect(formatDateOnly('2026-11-22T04:30:04.291Z')).toBe('22/11/2026');
    expect(formatDateOnly(null)).toBe('');
  });
});
