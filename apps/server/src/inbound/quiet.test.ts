import { describe, expect, it } from 'vitest';
import { automationIsQuiet, type TQuietInput } from './quiet';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const closedAllWeek = DAYS.map((weekdayEn) => ({ weekdayEn, startTime: '00:00', endTime: '00:00' }));

type TChange = Partial<Omit<TQuietInput, 'ticket'>> & { ticket?: Partial<TQuietInput['ticket']> };

/** the predicate for a pending ticket without queue on a connection without menu nor greeting, changed */
const quiet = (change: TChange = {}) =>
  automationIsQuiet({
    cycle: { id: 7, ratingAt: null, rated: false },
    contact: { disableBot: false },
    connection: { greetingMessage: '' },
    connectionQueues: 0,
    scheduleType: 'disabled',
    company: { timezone: 'America/Sao_Paulo', schedules: [] },
    now: new Date('2026-11-24T15:00:00Z'),
    ...change,
    ticket: {
      status: 'pending',
      isGroup: false,
      userId: null,
      queueId: null,
      chatbot: false,
      dataWebhook: {},
      ...change.ticket,
    },
  });

const rating = { id: 7, ratingAt: new Date('2026-11-24T14:00:00Z'), rated: false };

describe('automationIsQuiet: the chain would decide nothing', () => {
  it('for closed and group tickets, an attendant holding the ticket, and a contact without bots', () => {
    expect(quiet({ ticket: { status: 'closed' } })).toBe(true);
    expect(quiet({ ticket: { isGroup: true } })).toBe(true);
    expect(quiet({ ticket: { status: 'open', userId: 3, queueId: 1, chatbot: true } })).toBe(true);
    expect(quiet({ contact: { disableBot: true }, connectionQueues: 2 })).toBe(true);
  });

  it('for a ticket waiting in its queue, and a connection without menu nor greeting', () => {
    expect(quiet({ ticket: { queueId: 1 } })).toBe(true);
    expect(quiet()).toBe(true);
    // company hours open: nothing to say
    expect(quiet({ scheduleType: 'company' })).toBe(true);
  });

  it('once the greeting went out in this cycle, not before nor in an earlier cycle', () => {
    const greeted = (bot: unknown) =>
      quiet({ connection: { greetingMessage: 'Olá!' }, ticket: { dataWebhook: bot === undefined ? {} : { bot } } });
    expect(greeted(undefined)).toBe(false);
    expect(greeted({ cycle: 7, greetedAt: '2026-11-24T14:00:00Z' })).toBe(true);
    expect(greeted({ cycle: 6, greetedAt: '2026-11-20T14:00:00Z' })).toBe(false);
  });

  it('not when a rating is awaited, a cycle is missing, a menu or options tree runs, or hours are closed', () => {
    expect(quiet({ cycle: rating })).toBe(false);
    expect(quiet({ cycle: rating, ticket: { status: 'open', userId: 3 } })).toBe(false);
    expect(quiet({ cycle: null })).toBe(false);
    expect(quiet({ connectionQueues: 2 })).toBe(false);
    expect(quiet({ ticket: { queueId: 1, chatbot: true } })).toBe(false);
    expect(quiet({ scheduleType: 'company', company: { timezone: 'UTC', schedules: closedAllWeek } })).toBe(false);
    expect(quiet({ scheduleType: 'queue', ticket: { queueId: 1 } })).toBe(false);
  });
});

describe('automationIsQuiet with an AI prompt', () => {
  it('is never quiet when the AI stage answers the ticket, unless an attendant holds it', () => {
    expect(quiet()).toBe(true);
    expect(quiet({ aiPrompt: true })).toBe(false);
    expect(quiet({ aiPrompt: true, ticket: { queueId: 4, chatbot: false } })).toBe(false);
    expect(quiet({ aiPrompt: true, ticket: { status: 'open', userId: 3 } })).toBe(true);
    expect(quiet({ aiPrompt: true, contact: { disableBot: true } })).toBe(true);
  });
});
