import { describe, expect, it } from 'vitest';
import {
  MIN_RESEND_MS,
  mayResendMenu,
  parseRating,
  pickQueue,
  renderOptionsLevel,
  renderQueueMenu,
  SAFETY_MAX_MENU_SENDS,
  stepOptions,
  type TMenuOption,
} from './bot-rules';
import { missedCallText } from './texts';
import { isOpenAt, localTime, openRanges, safeTimeZone, wasOpenBetween } from './working-hours';

const week = (start: string, end: string, overrides: Record<string, [string, string]> = {}) =>
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekdayEn) => ({
    weekdayEn,
    startTime: overrides[weekdayEn]?.[0] ?? start,
    endTime: overrides[weekdayEn]?.[1] ?? end,
  }));

describe('working hours', () => {
  // 2025-01-06 is a Monday
  const saoPaulo = 'America/Sao_Paulo'; // UTC-3, no DST in 2025
  const schedules = week('08:00', '18:00', { saturday: ['08:00', '12:00'], sunday: ['00:00', '00:00'] });

  it('uses the company time zone, not the server clock', () => {
    // 10:30 UTC = 07:30 in São Paulo: closed there, open in UTC
    const at = new Date('2025-01-06T10:30:00Z');
    expect(isOpenAt(schedules, saoPaulo, at)).toBe(false);
    expect(isOpenAt(schedules, 'UTC', at)).toBe(true);
    expect(isOpenAt(schedules, saoPaulo, new Date('2025-01-06T11:00:00Z'))).toBe(true); // 08:00 local
    expect(isOpenAt(schedules, saoPaulo, new Date('2025-01-06T20:59:00Z'))).toBe(true); // 17:59
    expect(isOpenAt(schedules, saoPaulo, new Date('2025-01-06T21:00:00Z'))).toBe(false); // 18:00
  });

  it('crosses the date line with the zone: Monday 01:00 UTC is Sunday evening in São Paulo', () => {
    expect(localTime(new Date('2025-01-06T01:00:00Z'), saoPaulo).weekday).toBe(0);
    expect(isOpenAt(schedules, saoPaulo, new Date('2025-01-06T01:00:00Z'))).toBe(false);
    expect(isOpenAt(schedules, 'Asia/Tokyo', new Date('2025-01-06T01:00:00Z'))).toBe(true); // Monday 10:00
  });

  it('00:00–00:00 is closed, empty times are open all day, an end of 00:00 is midnight', () => {
    expect(openRanges(schedules, 0)).toEqual([]);
    expect(openRanges([{ weekdayEn: 'sunday', startTime: '', endTime: '' }], 0)).toEqual([[0, 1440]]);
    expect(openRanges([], 3)).toEqual([[0, 1440]]);
    expect(openRanges([{ weekdayEn: 'monday', startTime: '08:00', endTime: '00:00' }], 1)).toEqual([[480, 1440]]);
    expect(openRanges([{ weekdayEn: 'monday', startTime: '22:00', endTime: '02:00' }], 1)).toEqual([
      [0, 120],
      [1320, 1440],
    ]);
    expect(isOpenAt(schedules, saoPaulo, new Date('2025-01-12T15:00:00Z'))).toBe(false); // Sunday noon
  });

  it('an unknown zone falls back instead of throwing', () => {
    expect(safeTimeZone('Not/AZone')).toBe('America/Sao_Paulo');
    expect(() => isOpenAt(schedules, 'Not/AZone', new Date())).not.toThrow();
  });

  it('knows whether the hours opened between two instants (one message per closed period)', () => {
    const fridayEvening = new Date('2025-01-10T22:00:00Z'); // Fri 19:00
    const saturdayEarly = new Date('2025-01-11T10:00:00Z'); // Sat 07:00
    const saturdayLate = new Date('2025-01-11T16:00:00Z'); // Sat 13:00
    const mondayEarly = new Date('2025-01-13T10:00:00Z'); // Mon 07:00
    expect(wasOpenBetween(schedules, saoPaulo, fridayEvening, saturdayEarly)).toBe(false);
    expect(wasOpenBetween(schedules, saoPaulo, fridayEvening, saturdayLate)).toBe(true);
    expect(wasOpenBetween(schedules, saoPaulo, saturdayLate, mondayEarly)).toBe(false);
    expect(wasOpenBetween(schedules, saoPaulo, saturdayEarly, saturdayEarly)).toBe(false);
  });
});

describe('menus', () => {
  const queues = [
    { id: 7, name: 'Vendas', orderQueue: 2 },
    { id: 3, name: 'Suporte', orderQueue: 1 },
    { id: 9, name: 'Financeiro', orderQueue: null },
  ];

  it('renders the queue menu in orderQueue order and picks by number', () => {
    expect(renderQueueMenu('Olá!', queues)).toBe('Olá!\n\n*[ 1 ]* - Suporte\n*[ 2 ]* - Vendas\n*[ 3 ]* - Financeiro');
    expect(pickQueue(queues, ' 2 ')?.id).toBe(7);
    expect(pickQueue(queues, '*3*')?.id).toBe(9);
    expect(pickQueue(queues, '4')).toBeNull();
    expect(pickQueue(queues, '0')).toBeNull();
    expect(pickQueue(queues, 'vendas')).toBeNull();
  });

  const options: TMenuOption[] = [
    { id: 1, parentId: null, option: '1', title: 'Planos', message: 'Escolha o plano' },
    { id: 2, parentId: null, option: '2', title: 'Horários', message: 'Abrimos às 8h' },
    { id: 3, parentId: 1, option: '1', title: 'Básico', message: 'O básico custa 10' },
    { id: 4, parentId: 1, option: '2', title: 'Pro', message: 'O pro custa 20' },
    { id: 5, parentId: 4, option: '1', title: 'Anual', message: 'Anual com desconto' },
  ];

  it('renders a level with its back keys in the company language', () => {
    expect(renderOptionsLevel('pt', 'Bem-vindo', options, null)).toBe(
      'Bem-vindo\n\n*[ 1 ]* - Planos\n*[ 2 ]* - Horários\n*[ # ]* - Menu inicial',
    );
    expect(renderOptionsLevel('en', 'Escolha o plano', options, 1)).toBe(
      'Escolha o plano\n\n*[ 1 ]* - Básico\n*[ 2 ]* - Pro\n*[ 0 ]* - Previous menu\n*[ # ]* - Main menu',
    );
  });

  it('navigates: a node opens its level, a leaf ends, 0 goes up, # goes to the start', () => {
    expect(stepOptions(options, null, '1')).toEqual({ kind: 'show', nodeId: 1, back: false });
    expect(stepOptions(options, null, '2')).toEqual({ kind: 'leaf', option: options[1] });
    expect(stepOptions(options, 1, '2')).toEqual({ kind: 'show', nodeId: 4, back: false });
    expect(stepOptions(options, 4, '1')).toEqual({ kind: 'leaf', option: options[4] });
    expect(stepOptions(options, 4, '0')).toEqual({ kind: 'show', nodeId: 1, back: true });
    expect(stepOptions(options, 1, '0')).toEqual({ kind: 'show', nodeId: null, back: true });
    expect(stepOptions(options, null, '0')).toEqual({ kind: 'invalid' });
    expect(stepOptions(options, 4, '#')).toEqual({ kind: 'main' });
    expect(stepOptions(options, null, '9')).toEqual({ kind: 'invalid' });
  });

  it('never picks the only child whatever was typed', () => {
    expect(stepOptions(options, 4, 'oi')).toEqual({ kind: 'invalid' });
  });

  it('counts re-sends and spaces them', () => {
    const now = new Date('2025-01-06T12:00:00Z');
    const base = { maxUse: 3, intervalMinutes: 0, lastMenuAt: null, now };
    expect(mayResendMenu({ ...base, used: 0 })).toBe('send');
    expect(mayResendMenu({ ...base, used: 3 })).toBe('limit');
    expect(mayResendMenu({ ...base, used: 1, lastMenuAt: new Date(now.getTime() - MIN_RESEND_MS + 1) })).toBe('wait');
    expect(mayResendMenu({ ...base, used: 1, lastMenuAt: new Date(now.getTime() - MIN_RESEND_MS) })).toBe('send');
    expect(
      mayResendMenu({ ...base, used: 1, intervalMinutes: 5, lastMenuAt: new Date(now.getTime() - 4 * 60_000) }),
    ).toBe('wait');
    expect(mayResendMenu({ ...base, maxUse: 0, used: SAFETY_MAX_MENU_SENDS })).toBe('limit');
  });
});

describe('rating and texts', () => {
  it('accepts 1, 2 or 3 only', () => {
    expect(parseRating('1')).toBe(1);
    expect(parseRating(' 3 ')).toBe(3);
    expect(parseRating('*2*')).toBe(2);
    expect(parseRating('5')).toBeNull();
    expect(parseRating('0')).toBeNull();
    expect(parseRating('obrigado')).toBeNull();
    expect(parseRating('12')).toBeNull();
  });

  it('writes the missed call entry in the company zone', () => {
    const at = new Date('2025-01-06T13:05:00Z');
    expect(missedCallText('pt', false, at, 'America/Sao_Paulo')).toBe('Chamada de voz perdida às 10:05');
    expect(missedCallText('pt', true, at, 'UTC')).toBe('Chamada de vídeo perdida às 13:05');
    expect(missedCallText('en', false, at, 'UTC')).toBe('Missed voice call at 13:05');
  });
});
