import { describe, expect, it, vi } from 'vitest';
import {
  buildConversation,
  canDeleteMessage,
  canEditMessage,
  estimateItemSize,
  isFailedMessage,
  formatTicketTime,
  lastMessagePreview,
  parseLocationBody,
  parseVcard,
  shortenName,
  signBody,
  ticksOfAck,
} from './messageLogic';
import { makeMessage } from './testFixtures';

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h, 0, 0).toISOString();

describe('buildConversation', () => {
  it('puts a day header whenever the day changes', () => {
    const items = buildConversation([
      makeMessage(1, { createdAt: at(2025, 3, 1, 9) }),
      makeMessage(2, { createdAt: at(2025, 3, 1, 18) }),
      makeMessage(3, { createdAt: at(2025, 3, 2, 8) }),
    ]);
    expect(items.map((i) => (i.kind === 'day' ? i.day : i.kind))).toEqual([
      '01/03/2025',
      'message',
      'message',
      '02/03/2025',
      'message',
    ]);
  });

  it('marks the end of one ticket and the start of the next', () => {
    const items = buildConversation([
      makeMessage(1, { ticketId: 1, createdAt: at(2025, 3, 1, 9) }),
      makeMessage(2, { ticketId: 2, createdAt: at(2025, 3, 1, 10) }),
    ]);
    expect(items.map((i) => i.kind)).toEqual(['day', 'message', 'ticketEnd', 'ticketStart', 'message']);
    const end = items[2];
    expect(end.kind === 'ticketEnd' && end.at).toBe(at(2025, 3, 1, 9));
  });

  it('is empty without messages', () => {
    expect(buildConversation([])).toEqual([]);
  });

  it('keeps the rows of loaded messages under their keys when an older page arrives above them', () => {
    const newer = [
      makeMessage(20, { createdAt: at(2025, 3, 2, 9) }),
      makeMessage(21, { createdAt: at(2025, 3, 2, 10) }),
    ];
    const older = [
      makeMessage(10, { createdAt: at(2025, 3, 1, 9) }),
      makeMessage(11, { createdAt: at(2025, 3, 2, 8) }),
    ];
    const before = buildConversation(newer).map((i) => i.key);
    const after = buildConversation([...older, ...newer]).map((i) => i.key);
    expect(before).toEqual(['day-20', 'msg-20', 'msg-21']);
    // the 02/03 header moves up to the older message of that day; the rows on screen keep their keys
    expect(after).toEqual(['day-10', 'msg-10', 'day-11', 'msg-11', 'msg-20', 'msg-21']);
    expect(new Set(after).size).toBe(after.length);
  });

  it('builds five thousand messages over many days with one header per day, oldest first', () => {
    const start = new Date(2025, 0, 1, 8).getTime();
    // 20 messages a day, 45 minutes apart: 250 days
    const messages = Array.from({ length: 5000 }, (_, i) =>
      makeMessage(i + 1, {
        createdAt: new Date(start + Math.floor(i / 20) * 86_400_000 + (i % 20) * 2_700_000).toISOString(),
      }),
    );
    const items = buildConversation(messages);
    const days = items.filter((i) => i.kind === 'day');
    expect(days).toHaveLength(250);
    expect(items).toHaveLength(5250);
    expect(days[0].kind === 'day' && days[0].day).toBe('01/01/2025');
    expect(items[items.length - 1].key).toBe('msg-5000');
  });
});

describe('estimateItemSize', () => {
  it('gives headers and markers their size and lets a bubble grow with text, quote and picture', () => {
    const [day, message] = buildConversation([makeMessage(1, { body: 'oi' })]);
    expect(estimateItemSize(day)).toBe(40);
    const short = estimateItemSize(message);
    const long = estimateItemSize({ kind: 'message', key: 'm', message: makeMessage(2, { body: 'x'.repeat(200) }) });
    const lines = estimateItemSize({ kind: 'message', key: 'm', message: makeMessage(3, { body: 'a\nb\nc' }) });
    const picture = estimateItemSize({
      kind: 'message',
      key: 'm',
      message: makeMessage(4, { body: '', mediaType: 'image', mediaUrl: '/public/x.png' }),
    });
    expect(long).toBeGreaterThan(short);
    expect(lines).toBe(short + 40);
    expect(picture).toBeGreaterThan(200);
    expect(estimateItemSize({ kind: 'ticketEnd', key: 'e', at: '' })).toBe(46);
  });
});

describe('ticksOfAck', () => {
  it('maps acks to ticks', () => {
    expect(ticksOfAck(1)).toBe('single');
    expect(ticksOfAck(2)).toBe('doubleGrey');
    expect(ticksOfAck(3)).toBe('double');
    expect(ticksOfAck(4)).toBe('read');
    expect(ticksOfAck(5)).toBe('read');
    expect(ticksOfAck(0)).toBe('clock');
    expect(ticksOfAck(0, 'ERR_SENDING_WAPP_MSG')).toBe('error');
  });
});

describe('signBody', () => {
  it('prepends the bold user name and a line break when on', () => {
    expect(signBody('Olá', 'Ana', true)).toBe('*Ana:*\nOlá');
    expect(signBody('Olá', 'Ana', false)).toBe('Olá');
    expect(signBody('Olá', '  ', true)).toBe('Olá');
  });
});

describe('parseLocationBody', () => {
  it('reads image, link and optional description', () => {
    expect(parseLocationBody('data:image/png;base64,AA|https://maps.google.com/maps?q=1,2')).toEqual({
      imageUrl: 'data:image/png;base64,AA',
      link: 'https://maps.google.com/maps?q=1,2',
      description: '',
    });
    expect(parseLocationBody('img|https://maps.google.com/x|Rua A, 10')?.description).toBe('Rua A, 10');
    expect(parseLocationBody('just text')).toBeNull();
  });

  it('shows locations as Localização in the list', () => {
    const pt = (key: string) => ({ location: 'Localização' })[key] ?? key;
    expect(lastMessagePreview('data:image/png;base64,AA|https://maps.google.com/x', pt)).toBe('Localização');
    expect(lastMessagePreview('olá', pt)).toBe('olá');
    expect(lastMessagePreview('*Ana:*\n_olá_', pt)).toBe('Ana:\nolá');
    expect(lastMessagePreview('BEGIN:VCARD\nFN:Pedro\nEND:VCARD', pt)).toBe('👤 Pedro');
  });

  it('shows the fixed labels the server stores in the agent’s language, and nothing else changes', async () => {
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
    const { i18n } = await import('../../i18n');
    await import('./i18n');
    const labels = (lng: string) => (key: string) => i18n.t(`tickets.previewLabels.${key}`, { lng });
    const stored = ['Localização', 'Imagem', 'Áudio', 'Vídeo', 'Documento', 'Contato', 'Contatos'];
    expect(stored.map((s) => lastMessagePreview(s, labels('en')))).toEqual([
      '📍 Location',
      '📷 Image',
      '🎤 Audio',
      '🎥 Video',
      '📄 Document',
      '👤 Contact',
      '👥 Contacts',
    ]);
    expect(stored.map((s) => lastMessagePreview(s, labels('pt')))).toEqual([
      '📍 Localização',
      '📷 Imagem',
      '🎤 Áudio',
      '🎥 Vídeo',
      '📄 Documento',
      '👤 Contato',
      '👥 Contatos',
    ]);
    expect(lastMessagePreview('Localização', labels('es'))).toBe('📍 Ubicación');
    // a last message stored as a file's name (before the server stored the kind) reads as the kind
    expect(lastMessagePreview('2651e7a9c0d14b.png', labels('en'))).toBe('📷 Image');
    expect(lastMessagePreview('audio-record-1732.ogg', labels('es'))).toMatch(/^🎤 /);
    expect(lastMessagePreview('boleto.pdf', labels('pt'))).toBe('📄 Documento');
    expect(lastMessagePreview('veja o site zelo.app', labels('en'))).toBe('veja o site zelo.app');
    expect(lastMessagePreview('Imagem bonita', labels('en'))).toBe('Imagem bonita');
  });
});

describe('parseVcard', () => {
  it('reads the name and numbers', () => {
    const card = parseVcard('BEGIN:VCARD\nVERSION:3.0\nFN:Maria Silva\nitem1.TEL;waid=5511999:+55 11 999\nEND:VCARD');
    expect(card).toEqual({ name: 'Maria Silva', numbers: ['5511999'] });
  });
});

describe('row helpers', () => {
  it('shows HH:mm today and dd/MM/yyyy otherwise', () => {
    const now = new Date(2025, 2, 10, 15, 0);
    expect(formatTicketTime(new Date(2025, 2, 10, 9, 5).toISOString(), now)).toBe('09:05');
    expect(formatTicketTime(new Date(2025, 2, 9, 9, 5).toISOString(), now)).toBe('09/03/2025');
  });

  it('shortens names over 10 characters on narrow screens', () => {
    expect(shortenName('Maria Aparecida', true)).toBe('Maria Apar…');
    expect(shortenName('Maria Aparecida', false)).toBe('Maria Aparecida');
    expect(shortenName('Ana', true)).toBe('Ana');
  });

  it('lets only the author edit text and delete', () => {
    const mine = { fromMe: true, userId: 7 };
    expect(canDeleteMessage(makeMessage(1, mine), 7)).toBe(true);
    expect(canDeleteMessage(makeMessage(1, { fromMe: false }), 7)).toBe(false);
    expect(canEditMessage(makeMessage(1, mine), 7)).toBe(true);
    expect(canEditMessage(makeMessage(1, { ...mine, mediaType: 'image', mediaUrl: '/public/a.png' }), 7)).toBe(false);
    // another attendant's, the bot's, and one still being sent (negative local id): neither
    expect(canEditMessage(makeMessage(1, { fromMe: true, userId: 8 }), 7)).toBe(false);
    expect(canDeleteMessage(makeMessage(1, { fromMe: true, userId: 8 }), 7)).toBe(false);
    expect(canDeleteMessage(makeMessage(1, { fromMe: true, userId: null, source: 'bot' }), 7)).toBe(false);
    expect(canDeleteMessage(makeMessage(-1, mine), 7)).toBe(false);
    expect(canDeleteMessage(makeMessage(1, { ...mine, isDeleted: true }), 7)).toBe(false);
  });

  it('a failed message is an own one at ack 0 with an error code', () => {
    expect(isFailedMessage(makeMessage(1, { fromMe: true, ack: 0, errorCode: 'ERR_SENDING_WAPP_MSG' }))).toBe(true);
    expect(isFailedMessage(makeMessage(1, { fromMe: true, ack: 0, errorCode: null }))).toBe(false);
    expect(isFailedMessage(makeMessage(1, { fromMe: true, ack: 2, errorCode: null }))).toBe(false);
  });
});
