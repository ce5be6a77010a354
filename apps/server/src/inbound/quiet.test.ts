import { describe, expect, it } from 'vitest';
import { automationIsQuiet, type TQuietInput } from './quiet';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const closedAllWeek = DAYS.map((weekdayEn) => ({ weekdayEn, startTime: '00:00', endTime: '00:00' }));

const base = (): TQuietInput => ({
  ticket: { status: 'pending', isGroup: false, userId: null, queueId: null, chatbot: false, dataWebhook: {} },
  cycle: { id: 7, ratingAt: null, rated: false },
  contact: { disableBot: false },
  connection: { greetingMessage: '' },
  connectionQueues: 0,
  scheduleType: 'disabled',
  company: { timezone: 'America/Sao_Paulo', schedules: [] },
  now: new Date('2026-11-24T15:00:00Z'),
});

const quiet = (change: (i: TQuietInput) => void) => {
  const input = base();
  change(input);
  return automationIsQuiet(input);
};

describe('automationIsQuiet: the chain would decide nothing', () => {
  it('for closed and group tickets, an attendant holding the ticket, and a contact without bots', () => {
    expect(quiet((i) => (i.ticket.status = 'closed'))).toBe(true);
    expect(quiet((i) => (i.ticket.isGroup = true))).toBe(true);
    expect(quiet((i) => Object.assign(i.ticket, { status: 'open', userId: 3, queueId: 1, chatbot: true }))).toBe(true);
    expect(quiet((i) => Object.assign(i, { contact: { disableBot: true }, connectionQueues: 2 }))).toBe(true);
  });

  it('for a ticket waiting in its queue, and a connection without menu nor greeting', () => {
    expect(quiet((i) => (i.ticket.queueId = 1))).toBe(true);
    expect(quiet(() => undefined)).toBe(true);
  });

  it('once the greeting went out in this cycle, not before nor in an earlier cycle', () => {
    const greeted = (bot: unknown) =>
      quiet((i) => {
        i.connection.greetingMessage = 'Olá!';
        i.ticket.dataWebhook = { bot };
      });
    expect(greeted(undefined)).toBe(false);
    expect(greeted({ cycle: 7, greetedAt: '2026-11-24T14:00:00Z' })).toBe(true);
    expect(greeted({ cycle: 6, greetedAt: '2026-11-20T14:00:00Z' })).toBe(false);
  });

  it('not when a rating is awaited, a cycle is missing, a menu or options tree runs, or hours are closed', () => {
    expect(quiet((i) => (i.cycle = { id: 7, ratingAt: new Date(), rated: false }))).toBe(false);
    expect(
      quiet(
        (i) =>
          Object.assign(i.ticket, { userId: 3, status: 'open' }) &&
          (i.cycle = { id: 7, ratingAt: new Date(), rated: false }),
      ),
    ).toBe(false);
    expect(quiet((i) => (i.cycle = null))).toBe(false);
    expect(quiet((i) => (i.connectionQueues = 2))).toBe(false);
    expect(quiet((i) => Object.assign(i.ticket, { queueId: 1, chatbot: true }))).toBe(false);
    expect(
      quiet((i) =>
        Object.assign(i, { scheduleType: 'company', company: { timezone: 'UTC', schedules: closedAllWeek } }),
      ),
    ).toBe(false);
    expect(quiet((i) => Object.assign(i, { scheduleType: 'queue' }) && (i.ticket.queueId = 1))).toBe(false);
    // company hours open: nothing to say
    expect(quiet((i) => (i.scheduleType = 'company'))).toBe(true);
  });
});
