import type { TQuickMessage } from '@zelo/shared';
import { describe, expect, it } from 'vitest';
import { formatDuration, recordingFileName, shouldSendRecording } from './audioRecording';
import { matchUsers } from './dialogLogic';
import { flattenMessages, updateMessage, upsertMessage } from './messagesCache';
import { applyTicketEventToBell, shouldNotify } from './notificationRules';
import { filterQuickAnswers, quickAnswerLabel } from './quickAnswers';
import { makeMessage, makeTicket } from './testFixtures';
import { transitionBody } from './ticketTransitions';
import type { TMessagesData } from './ticketTypes';

const quick = (id: number, shortcode: string, message: string): TQuickMessage => ({
  id,
  shortcode,
  message,
  geral: true,
  status: true,
  isMedia: false,
  mediaPath: null,
  mediaName: null,
  userId: null,
});

describe('quick answers', () => {
  const list = [
    quick(1, 'bomdia', 'Bom dia!'),
    quick(2, 'preco', 'Nossos preços...'),
    quick(3, 'obrigado', 'Obrigado'),
  ];

  it('suggests only when the text starts with /', () => {
    expect(filterQuickAnswers(list, 'bom')).toEqual([]);
    expect(filterQuickAnswers(list, '/').map((q) => q.id)).toEqual([1, 2, 3]);
    expect(filterQuickAnswers(list, '/bo').map((q) => q.id)).toEqual([1]);
    expect(filterQuickAnswers(list, '/o').map((q) => q.id)).toEqual([3, 1, 2]);
  });

  it('cuts labels at 35 characters plus an ellipsis', () => {
    expect(quickAnswerLabel('a'.repeat(35))).toBe('a'.repeat(35));
    expect(quickAnswerLabel('a'.repeat(36))).toBe(`${'a'.repeat(35)}…`);
  });
});

describe('notification rules', () => {
  const ctx = { userId: 7, showPending: false, visibleTicketId: null };

  it('skips own messages, groups and tickets of other users', () => {
    const ticket = makeTicket(1, { status: 'open', userId: 7 });
    expect(shouldNotify(makeMessage(1), ticket, ctx)).toBe(true);
    expect(shouldNotify(makeMessage(1, { fromMe: true }), ticket, ctx)).toBe(false);
    expect(shouldNotify(makeMessage(1), { ...ticket, isGroup: true }, ctx)).toBe(false);
    expect(shouldNotify(makeMessage(1), { ...ticket, userId: 8 }, ctx)).toBe(false);
  });

  it('notifies pending tickets only with the show-all flag', () => {
    const ticket = makeTicket(1, { status: 'pending' });
    expect(shouldNotify(makeMessage(1), ticket, ctx)).toBe(false);
    expect(shouldNotify(makeMessage(1), ticket, { ...ctx, showPending: true })).toBe(true);
  });

  it('does not notify the ticket on screen', () => {
    const ticket = makeTicket(1, { status: 'open', userId: 7 });
    expect(shouldNotify(makeMessage(1), ticket, { ...ctx, visibleTicketId: 1 })).toBe(false);
  });
});

describe('messages cache', () => {
  const data = (): TMessagesData => ({
    pages: [
      { messages: [makeMessage(3), makeMessage(4)], hasMore: true },
      { messages: [makeMessage(1), makeMessage(2)], hasMore: false },
    ],
    pageParams: [1, 2],
  });

  it('reads oldest first', () => {
    expect(flattenMessages(data()).map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });

  it('appends new messages and replaces known ones', () => {
    expect(flattenMessages(upsertMessage(data(), makeMessage(5))).map((m) => m.id)).toEqual([1, 2, 3, 4, 5]);
    const acked = upsertMessage(data(), makeMessage(2, { ack: 4 }));
    expect(flattenMessages(acked).find((m) => m.id === 2)?.ack).toBe(4);
    const base = data();
    expect(updateMessage(base, makeMessage(99))).toBe(base);
  });
});

describe('audio recording', () => {
  it('drops recordings under 10000 bytes', () => {
    expect(shouldSendRecording(9999)).toBe(false);
    expect(shouldSendRecording(10_000)).toBe(true);
  });

  it('formats the timer and names the file for the server', () => {
    expect(formatDuration(75)).toBe('01:15');
    expect(recordingFileName('audio/ogg;codecs=opus', 1)).toBe('audio-record-site-1.ogg');
  });
});

describe('transfer user search', () => {
  const users = [
    { id: 1, name: 'Ana Souza', queues: [{ id: 1 }] },
    { id: 2, name: 'Anabela', queues: [{ id: 2 }] },
  ];

  it('starts at 3 characters and keeps users of the chosen queue', () => {
    expect(matchUsers(users, 'an', null)).toEqual([]);
    expect(matchUsers(users, 'ana', null).map((u) => u.id)).toEqual([1, 2]);
    expect(matchUsers(users, 'ana', 2).map((u) => u.id)).toEqual([2]);
  });
});

describe('ticket transitions', () => {
  it('sends what spec 1 §4 names', () => {
    const ticket = makeTicket(1, { status: 'open', userId: 7, queueId: 3 });
    expect(transitionBody('accept', ticket, 7)).toEqual({ status: 'open', userId: 7, queueId: 3 });
    expect(transitionBody('return', ticket, 7)).toEqual({ status: 'pending', userId: null });
    expect(transitionBody('close', ticket, 7)).toMatchObject({
      status: 'closed',
      useIntegration: false,
      promptId: null,
    });
  });
});

describe('the bell and a move (delete, then update)', () => {
  const keep = (t: ReturnType<typeof makeTicket>) => t.unreadMessages > 0 && t.status !== 'closed';
  const unread = (id: number, fields: Parameters<typeof makeTicket>[1] = {}) =>
    makeTicket(id, { unreadMessages: 2, ...fields });

  it('a ticket accepted by this user leaves the bell on the delete and comes back on the update', () => {
    const moved = new Set<number>();
    let bell = [unread(1), unread(2)];
    bell = applyTicketEventToBell(bell, { action: 'delete', ticketId: 1, moved: true }, keep, moved);
    expect(bell.map((t) => t.id)).toEqual([2]);
    bell = applyTicketEventToBell(bell, { action: 'update', ticket: unread(1, { status: 'open' }) }, keep, moved);
    expect(bell.map((t) => t.id)).toEqual([1, 2]);
    expect(moved.size).toBe(0);
  });

  it('a ticket moved out of sight (no update follows) stays off; a real delete never comes back', () => {
    const moved = new Set<number>();
    let bell = applyTicketEventToBell([unread(1)], { action: 'delete', ticketId: 1, moved: true }, keep, moved);
    expect(bell).toEqual([]);
    bell = applyTicketEventToBell([unread(3)], { action: 'delete', ticketId: 3 }, keep, moved);
    bell = applyTicketEventToBell(bell, { action: 'update', ticket: unread(3) }, keep, moved);
    expect(bell).toEqual([]);
  });

  it('an update never adds a ticket that was not on the bell, and drops one that no longer belongs', () => {
    const moved = new Set<number>();
    expect(applyTicketEventToBell([], { action: 'update', ticket: unread(5) }, keep, moved)).toEqual([]);
    const read = applyTicketEventToBell([unread(5)], { action: 'update', ticket: makeTicket(5) }, keep, moved);
    expect(read).toEqual([]);
  });
});

describe('the open ticket leaving the viewer’s reach', () => {
  it('refuses a ticket that cannot be opened, but just leaves one already shown (a transfer is no refusal)', async () => {
    const { stubLocalStorage } = await import('../../testing/renderScreen');
    stubLocalStorage();
    const { openTicketOutcome } = await import('./useOpenTicket');
    expect(openTicketOutcome({ wasShown: false, failed: false, accessible: null })).toBe('wait');
    expect(openTicketOutcome({ wasShown: false, failed: false, accessible: true })).toBe('show');
    expect(openTicketOutcome({ wasShown: false, failed: true, accessible: null })).toBe('denied');
    expect(openTicketOutcome({ wasShown: false, failed: false, accessible: false })).toBe('denied');
    // the agent's own transfer to a sector they are not in: the cached ticket moves out of reach
    expect(openTicketOutcome({ wasShown: true, failed: false, accessible: false })).toBe('left');
    expect(openTicketOutcome({ wasShown: true, failed: true, accessible: true })).toBe('left');
  });
});

describe('the new-ticket contact field', () => {
  it('leaves no suggestion list open once a contact is chosen or added, and suggests again when typing', async () => {
    const { stubLocalStorage } = await import('../../testing/renderScreen');
    stubLocalStorage();
    const { contactOptions } = await import('./NewTicketDialog');
    const ana = { id: 7, name: 'Ana Souza', number: '5511987651234' } as never;
    const typed = contactOptions([ana], 'ana', null);
    expect(typed.suggesting).toBe(true);
    expect(typed.options.map((o) => o.kind)).toEqual(['contact', 'create']);
    // just added (or picked): the field shows it and nothing is suggested, not even "add Ana Souza - …"
    const added = contactOptions([], 'Ana Souza - 5511987651234', ana);
    expect(added).toEqual({ suggesting: false, options: [{ kind: 'contact', contact: ana }] });
    expect(contactOptions([ana], 'Ana Souza - 551198765123', ana).suggesting).toBe(true);
  });
});
