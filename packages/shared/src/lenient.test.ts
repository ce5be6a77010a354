import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { zBool, zIdOrNone, zLanguage, zNumeric, zNumericOrNone } from './common';
import { ZSendTextBody } from './messages';
import { ZCompanyBody, ZCompanyUpdateBody } from './companies';
import { ZConnectionBody, ZConnectionUpdateBody } from './connections';
import { ZQueueCreateBody, ZQueueOptionBody, ZQueueOptionUpdateBody, ZQueueUpdateBody } from './queues';
import { DEFAULT_TAG_COLOR, ZTagBody, ZTagUpdateBody } from './tags';
import { ZUpdateTicketBody } from './tickets';
import { ZUserBody, ZUserUpdateBody } from './users';

/** the legacy-lenient rule (ARCHITECTURE §8.2): what clients written to the spec send, and what stays refused */
describe('zBool', () => {
  it('reads true/false, 1/0, "1"/"0" and "true"/"false"', () => {
    for (const yes of [true, 1, '1', 'true']) expect(zBool.parse(yes)).toBe(true);
    for (const no of [false, 0, '0', 'false']) expect(zBool.parse(no)).toBe(false);
  });

  it('refuses what is a guess', () => {
    for (const bad of [2, -1, 'yes', 'no', 'on', '', 'TRUE ', null, [], {}])
      expect(zBool.safeParse(bad).success).toBe(false);
  });
});

describe('zIdOrNone', () => {
  it('reads an id, and null, "" and false as none', () => {
    expect(zIdOrNone.parse(7)).toBe(7);
    expect(zIdOrNone.parse('7')).toBe(7);
    for (const none of [null, '', false]) expect(zIdOrNone.parse(none)).toBeNull();
  });

  it('refuses 0, negatives, true, words and fractions', () => {
    for (const bad of [0, -3, true, 'abc', '1.5', 1.5, ' 1', '0x10', []])
      expect(zIdOrNone.safeParse(bad).success).toBe(false);
  });

  it('on an update a field left out stays undefined (unchanged), a "none" becomes null (cleared)', () => {
    expect(ZUpdateTicketBody.parse({ status: 'closed' })).toEqual({ status: 'closed' });
    expect(ZUpdateTicketBody.parse({ status: 'closed', promptId: false, integrationId: '', queueId: null })).toEqual({
      status: 'closed',
      promptId: null,
      integrationId: null,
      queueId: null,
    });
  });
});

describe('zNumeric', () => {
  const n = zNumeric(z.number().int().min(0).max(100));
  it('reads numbers and numeric strings, inside the bounds', () => {
    expect(n.parse(5)).toBe(5);
    expect(n.parse('5')).toBe(5);
    expect(n.parse(' 42 ')).toBe(42);
    expect(n.safeParse('101').success).toBe(false);
    expect(n.safeParse('1.5').success).toBe(false);
  });

  it('refuses words, empty text, exponents and hex', () => {
    for (const bad of ['abc', '', '1e3', '0x10', null, true, false]) expect(n.safeParse(bad).success).toBe(false);
  });

  it('an optional number takes "", null and false as none', () => {
    const o = zNumericOrNone(z.number().int());
    for (const none of ['', null, false]) expect(o.parse(none)).toBeNull();
    expect(o.parse('3')).toBe(3);
    expect(o.safeParse('abc').success).toBe(false);
  });
});

describe("the ancestor client's shapes", () => {
  it('its composer: read 1, fromMe true, mediaUrl ""', () => {
    const body = ZSendTextBody.parse({ read: 1, fromMe: true, mediaUrl: '', body: 'hello', quotedMsg: null });
    expect(body).toMatchObject({ read: true, fromMe: true, body: 'hello' });
    expect(ZSendTextBody.safeParse({ read: 2, body: 'hello' }).success).toBe(false);
  });

  it('its header Resolve button', () => {
    const body = ZUpdateTicketBody.parse({
      status: 'closed',
      userId: 3,
      useIntegration: false,
      promptId: false,
      integrationId: false,
    });
    expect(body).toEqual({ status: 'closed', userId: 3, useIntegration: false, promptId: null, integrationId: null });
  });

  it('its queue dialog: orderQueue "" is no order, integrationId "" none', () => {
    const body = ZQueueCreateBody.parse({
      name: 'Sales',
      color: '#112233',
      greetingMessage: '',
      outOfHoursMessage: '',
      orderQueue: '',
      integrationId: '',
      promptId: null,
    });
    expect(body).toMatchObject({ orderQueue: null, integrationId: null, promptId: null });
    expect(ZQueueCreateBody.parse({ name: 'Sales', color: '#112233', orderQueue: '2' }).orderQueue).toBe(2);
    expect(ZQueueUpdateBody.parse({ name: 'Sales' })).toEqual({ name: 'Sales' });
    expect(ZQueueCreateBody.safeParse({ name: 'Sales', color: '#112233', orderQueue: 'first' }).success).toBe(false);
  });

  it('its schedules form: a day whose two times are cleared ("") is open all day; one cleared time is refused', () => {
    const day = { weekday: 'Sábado', weekdayEn: 'saturday' };
    const ok = ZQueueUpdateBody.parse({ schedules: [{ ...day, startTime: '', endTime: '' }] });
    expect(ok.schedules).toEqual([{ ...day, startTime: '', endTime: '' }]);
    const half = ZQueueUpdateBody.safeParse({ schedules: [{ ...day, startTime: '08:00', endTime: '' }] });
    expect(half.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['schedules.0.endTime', 'required']]);
    expect(ZQueueUpdateBody.safeParse({ schedules: [{ ...day, startTime: '8h', endTime: '' }] }).success).toBe(false);
  });

  it('its name messages: nameRequired, nameShort, nameLong (spec 2 §5)', () => {
    const messages = (name: unknown) =>
      ZQueueCreateBody.safeParse({ name, color: '#112233' }).error?.issues.map((i) => i.message);
    expect(messages(undefined)).toEqual(['nameRequired']);
    expect(messages('  ')).toEqual(['nameRequired']);
    expect(messages('A')).toEqual(['nameShort']);
    expect(messages('x'.repeat(51))).toEqual(['nameLong']);
    expect(messages('Ab')).toBeUndefined();
  });

  it('its user dialog: whatsappId false on create, "" on edit', () => {
    const base = { name: 'Ann', email: 'ann@x.test', password: 'secret', profile: 'user', allTicket: 'desabled' };
    expect(ZUserBody.parse({ ...base, whatsappId: false, queueIds: [] }).whatsappId).toBeNull();
    expect(ZUserUpdateBody.parse({ ...base, whatsappId: '' }).whatsappId).toBeNull();
    expect(ZUserUpdateBody.parse({ name: 'Ann' }).whatsappId).toBeUndefined();
  });

  it('its tag dialog: an empty colour is the default, kanban 0', () => {
    expect(ZTagBody.parse({ name: 'VIP', color: '', kanban: 0 })).toEqual({
      name: 'VIP',
      color: DEFAULT_TAG_COLOR,
      kanban: 0,
    });
    expect(ZTagBody.parse({ name: 'VIP', kanban: true }).kanban).toBe(1);
    expect(ZTagUpdateBody.parse({ name: 'VIP' })).toEqual({ name: 'VIP' });
    expect(ZTagBody.safeParse({ name: 'VIP', kanban: 2 }).success).toBe(false);
  });
});

describe("the ancestor's own words", () => {
  it('a connection provider "beta" or "stable" is none given: the default on create, unchanged on update', () => {
    expect(ZConnectionBody.parse({ name: 'Main', provider: 'beta' }).provider).toBe('sandbox');
    expect(ZConnectionBody.parse({ name: 'Main', provider: 'baileys' }).provider).toBe('baileys');
    expect(ZConnectionUpdateBody.parse({ provider: 'stable' }).provider).toBeUndefined();
    expect(ZConnectionBody.safeParse({ name: 'Main', provider: 'telegram' }).success).toBe(false);
  });

  it('a company recurrence "" is none given', () => {
    const company = { name: 'Acme', email: 'a@acme.test', planId: 1 };
    expect(ZCompanyBody.parse({ ...company, recurrence: '' }).recurrence).toBe('MENSAL');
    expect(ZCompanyUpdateBody.parse({ recurrence: '' }).recurrence).toBeUndefined();
    expect(ZCompanyBody.safeParse({ ...company, recurrence: 'WEEKLY' }).success).toBe(false);
  });

  it('a queue option key sent as a number is its text', () => {
    expect(ZQueueOptionBody.parse({ queueId: 1, title: 'Billing', option: 1 }).option).toBe('1');
    expect(ZQueueOptionUpdateBody.parse({ option: 2 }).option).toBe('2');
    expect(ZQueueOptionBody.safeParse({ queueId: 1, title: 'Billing', option: 1.5 }).success).toBe(false);
  });
});

describe('zLanguage', () => {
  it('reads our languages and their regional tags', () => {
    expect(zLanguage.parse('pt')).toBe('pt');
    expect(zLanguage.parse('pt-BR')).toBe('pt');
    expect(zLanguage.parse('en_US')).toBe('en');
  });

  it('refuses other languages and anything else', () => {
    for (const bad of ['fr', 'fr-FR', 'portuguese', '', 'pt-BR-x', 1])
      expect(zLanguage.safeParse(bad).success).toBe(false);
  });
});
