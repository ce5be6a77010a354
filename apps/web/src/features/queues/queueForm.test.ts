import { DEFAULT_QUEUE_SCHEDULES, type TQueue, ZQueueCreateBody } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/http';
import { QUEUE_COLOR_PALETTE, textOn } from './queueColors';
import { conflictField, firstFreeColor, isHexColor, sortQueues, toQueueFormValues, weekOf } from './queueForm';

const queue = (fields: Partial<TQueue>): TQueue => ({
  id: 1,
  name: 'Vendas',
  color: '#1273DE',
  greetingMessage: '',
  outOfHoursMessage: '',
  orderQueue: null,
  integrationId: null,
  promptId: null,
  autoAssign: false,
  autoAssignMax: 5,
  schedules: [],
  ...fields,
});

describe('queue form', () => {
  it('a new queue starts from the default week of spec 2 §3 and the colour given; "" for the empty links', () => {
    const values = toQueueFormValues(null, '#B80000');
    expect(values).toMatchObject({ name: '', color: '#B80000', orderQueue: '', integrationId: '', promptId: '' });
    expect(values.schedules).toEqual(DEFAULT_QUEUE_SCHEDULES);
    // the shared schema turns the empty fields into the request's "none"
    const body = ZQueueCreateBody.parse({ ...values, name: 'Suporte' });
    expect(body).toMatchObject({ orderQueue: null, integrationId: null, promptId: null });
    expect(ZQueueCreateBody.parse({ ...values, name: 'Suporte', orderQueue: '3' }).orderQueue).toBe(3);
  });

  it('service-level targets: empty is none (the company default), a number typed is the target', () => {
    const values = toQueueFormValues(queue({ slaFirstResponseMinutes: 15, slaResolutionHours: null }), '#000000');
    expect(values).toMatchObject({ slaFirstResponseMinutes: '15', slaResolutionHours: '' });
    const body = ZQueueCreateBody.parse({ ...values, slaResolutionHours: '8' });
    expect(body).toMatchObject({ slaFirstResponseMinutes: 15, slaResolutionHours: 8 });
    expect(ZQueueCreateBody.parse({ ...values, slaFirstResponseMinutes: '' }).slaFirstResponseMinutes).toBeNull();
    expect(ZQueueCreateBody.safeParse({ ...values, slaFirstResponseMinutes: '0' }).success).toBe(false);
  });

  it('an edited queue keeps its values; a week with missing days is completed Monday to Sunday', () => {
    const saturday = { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '', endTime: '' };
    const values = toQueueFormValues(queue({ orderQueue: 2, promptId: 7, schedules: [saturday] }), '#000000');
    expect(values).toMatchObject({ color: '#1273DE', orderQueue: '2', promptId: 7, integrationId: '' });
    expect(values.schedules.map((d) => d.weekdayEn)).toEqual(DEFAULT_QUEUE_SCHEDULES.map((d) => d.weekdayEn));
    expect(values.schedules[5]).toEqual(saturday);
    expect(values.schedules[0]).toEqual(DEFAULT_QUEUE_SCHEDULES[0]);
    expect(weekOf(undefined)).toEqual(DEFAULT_QUEUE_SCHEDULES);
  });

  it('sorts like the server and the bot menu: by order (none last), then name ignoring case, then id', () => {
    const rows = [
      queue({ id: 1, name: 'beta', orderQueue: null }),
      queue({ id: 2, name: 'Alpha', orderQueue: null }),
      queue({ id: 3, name: 'Zulu', orderQueue: 1 }),
      queue({ id: 4, name: 'Charlie', orderQueue: 2 }),
      queue({ id: 5, name: 'alpha', orderQueue: null }),
    ];
    expect(sortQueues(rows).map((q) => q.id)).toEqual([3, 4, 2, 5, 1]);
  });

  it('offers the first palette colour no queue uses', () => {
    expect(QUEUE_COLOR_PALETTE).toHaveLength(50);
    expect(new Set(QUEUE_COLOR_PALETTE.map((c) => c.toLowerCase())).size).toBe(50);
    expect(firstFreeColor(QUEUE_COLOR_PALETTE, [])).toBe(QUEUE_COLOR_PALETTE[0]);
    expect(firstFreeColor(QUEUE_COLOR_PALETTE, [QUEUE_COLOR_PALETTE[0].toLowerCase()])).toBe(QUEUE_COLOR_PALETTE[1]);
    expect(firstFreeColor(QUEUE_COLOR_PALETTE, [...QUEUE_COLOR_PALETTE])).toBe(QUEUE_COLOR_PALETTE[0]);
  });

  it('knows a hex colour and the text that reads on it', () => {
    expect(['#abc', '#A1B2C3', '#a1b2c3ff'].every(isHexColor)).toBe(true);
    expect(['abc', '#abcd1', 'red', '#ggg'].some(isHexColor)).toBe(false);
    expect(textOn('#FEF3BD')).toBe('#000');
    expect(textOn('#fff')).toBe('#000');
    expect(textOn('#004DCF')).toBe('#fff');
    expect(textOn('blue')).toBe('#fff');
  });

  it("puts the server's name and colour conflicts on their fields", () => {
    expect(conflictField(new ApiError(409, 'ERR_DUPLICATED_QUEUE', 'x'))).toEqual({
      field: 'name',
      message: 'nameTaken',
    });
    expect(conflictField(new ApiError(409, 'ERR_QUEUE_COLOR_ALREADY_EXISTS', 'x'))).toEqual({
      field: 'color',
      message: 'colorTaken',
    });
    expect(conflictField(new ApiError(500, 'ERR_INTERNAL_SERVER_ERROR', 'x'))).toBeNull();
    expect(conflictField(new Error('offline'))).toBeNull();
  });
});
