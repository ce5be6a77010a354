import { describe, expect, it } from 'vitest';
import type { TMedia } from '../types';
import type { TWAMessage } from './baileys.types';
import recorded from './fixtures/wa-messages.json';
import { mapInbound, type TMapped } from './map-inbound';

/** WAMessage shapes as Baileys 6.17 emits them (messages.upsert), one per kind the pipeline knows */
const fixtures = recorded as unknown as Record<string, TWAMessage>;
const downloads: { id: string; mimetype: string; fileName?: string }[] = [];
const ctx = {
  connectionId: 5,
  download: (m: TWAMessage, mimetype: string, fileName?: string) => async (): Promise<TMedia> => {
    downloads.push({ id: String(m.key.id), mimetype, fileName });
    return { data: Buffer.from('x'), mimetype, fileName };
  },
};
const map = (name: string) => mapInbound(fixtures[name], ctx);
const message = (name: string) => {
  const mapped = map(name);
  if (mapped?.kind !== 'message') throw new Error(`${name} did not map to a message`);
  return mapped.message;
};

describe('Baileys messages in the driver shape', () => {
  it('text and extended text: body, push name, time, quote', () => {
    expect(message('text')).toMatchObject({
      connectionId: 5,
      externalId: '3A5F1C2B9D8E7F601234',
      from: '5511988887777',
      fromMe: false,
      isGroup: false,
      type: 'text',
      body: 'Olá, tudo bem?',
      pushName: 'Maria Silva',
      timestamp: new Date(1763800000 * 1000),
    });
    expect(message('extendedTextQuoted')).toMatchObject({
      type: 'text',
      body: 'Esse aqui https://zelo.app',
      quotedExternalId: '3EB0AABBCCDDEEFF0011',
      timestamp: new Date(1763800010 * 1000),
    });
  });

  it('media of every kind is fetched on demand with its mimetype and file name', async () => {
    const cases: [string, string, string, string?][] = [
      ['image', 'image', 'image/jpeg'],
      ['video', 'video', 'video/mp4'],
      ['voice', 'voice', 'audio/ogg; codecs=opus'],
      ['audio', 'audio', 'audio/mpeg'],
      ['documentWithCaption', 'document', 'application/pdf', 'nota-fiscal.pdf'],
      ['sticker', 'sticker', 'image/webp'],
      ['viewOnce', 'image', 'image/jpeg'],
      ['viewOnceV1', 'video', 'video/mp4'],
      ['viewOnceV2ExtensionVoice', 'voice', 'audio/ogg; codecs=opus'],
      ['document', 'document', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'planilha.xlsx'],
    ];
    for (const [name, type, mimetype, fileName] of cases) {
      const m = message(name);
      expect(m.type, name).toBe(type);
      expect(typeof m.media, name).toBe('function');
      const file = await (m.media as () => Promise<TMedia>)();
      expect(file, name).toMatchObject({ mimetype, ...(fileName ? { fileName } : {}) });
    }
    expect(message('image').body).toBe('O produto chegou assim');
    expect(message('documentWithCaption').body).toBe('Segue a nota');
    expect(message('viewOnce').body).toBe('só uma vez');
    expect(message('voice').body).toBe('');
    expect(message('viewOnceV1').body).toBe('vídeo único');
    expect(message('document').body).toBe('');
    expect(downloads.map((d) => d.id)).toContain('3A5F1C2B9D8E7F601236');
  });

  it('locations, live locations, a contact and several contacts', () => {
    expect(message('location')).toMatchObject({
      type: 'location',
      location: { latitude: -23.5505, longitude: -46.6333, description: 'Praça da Sé, São Paulo' },
    });
    expect(message('liveLocation')).toMatchObject({
      type: 'location',
      body: 'Estou aqui',
      location: { latitude: -22.9068, longitude: -43.1729 },
    });
    expect(message('contact')).toMatchObject({ type: 'vcard', body: 'João' });
    expect(message('contact').vcards?.[0]).toContain('waid=5511977776666');
    expect(message('contacts').vcards).toHaveLength(2);
    expect(message('contacts').type).toBe('contacts');
  });

  it('reactions name the message they react to; button and list replies carry what was chosen', () => {
    expect(message('reaction')).toMatchObject({
      type: 'reaction',
      body: '👍',
      quotedExternalId: '3EB0AABBCCDDEEFF0011',
    });
    expect(message('buttonReply')).toMatchObject({ type: 'button_reply', body: 'Financeiro' });
    expect(message('templateButtonReply')).toMatchObject({ type: 'button_reply', body: 'Suporte' });
    expect(message('listReply')).toMatchObject({ type: 'list_reply', body: 'Segunda via de boleto' });
    expect(message('interactiveResponse')).toMatchObject({ type: 'button_reply', body: 'Quero falar com vendas' });
    // a reaction taken back comes with no emoji
    expect(message('reactionRemoved')).toMatchObject({
      type: 'reaction',
      body: '',
      quotedExternalId: '3EB0AABBCCDDEEFF0011',
    });
  });

  it('edits and revokes become updates of the message they name; wrappers are opened', () => {
    expect(map('edit')).toEqual<TMapped>({
      kind: 'update',
      update: { connectionId: 5, externalId: '3A5F1C2B9D8E7F601234', edit: { body: 'Olá, tudo certo?' } },
    });
    expect(map('revoke')).toEqual<TMapped>({
      kind: 'update',
      update: { connectionId: 5, externalId: '3A5F1C2B9D8E7F601235', deleted: true },
    });
    expect(message('ephemeral')).toMatchObject({ type: 'text', body: 'mensagem temporária' });
    expect(map('editCaption')).toEqual<TMapped>({
      kind: 'update',
      update: { connectionId: 5, externalId: 'V1', edit: { body: 'legenda corrigida' } },
    });
  });

  it('groups carry their id and the member who wrote; messages from the phone are fromMe', () => {
    expect(message('group')).toMatchObject({
      from: '120363041234567890',
      isGroup: true,
      participant: '5511966665555',
      participantName: 'Carlos',
      type: 'text',
      body: 'bom dia, grupo',
    });
    expect(message('fromPhone')).toMatchObject({ fromMe: true, from: '5511988887777', body: 'respondi pelo celular' });
  });

  it('status broadcasts keep their id for the pipeline to drop; technical messages map to nothing; unknown kinds say what they were', () => {
    expect(message('statusBroadcast').from).toBe('status@broadcast');
    expect(map('keyDistributionOnly')).toBeNull();
    // Baileys upserts a stub beside each call event: the call is reported by the driver, never as a message
    expect(map('callStub')).toBeNull();
    // posts of a WhatsApp channel one follows are no customer's conversation
    expect(map('newsletter')).toBeNull();
    expect(message('poll')).toMatchObject({ type: 'text', body: '[pollCreation]' });
  });

  it('a @lid sender with its phone number is reported by the number, and the pair is given to remember', () => {
    const mapped = map('lidWithPhone');
    expect(mapped).toMatchObject({
      kind: 'message',
      message: { from: '5511955554444', body: 'oi pelo lid' },
      lid: { lid: '98765432109876', number: '5511955554444' },
    });
  });

  it('a @lid in any place WhatsApp gives it beside a number (Baileys 6.7 and 7 names) is reported by the number', () => {
    expect(map('lidAlternativeV7')).toMatchObject({
      message: { from: '5511911110000' },
      lid: { lid: '44455566677788', number: '5511911110000' },
    });
    // the number in the key, its @lid beside it: the pair is remembered for when the @lid comes alone
    expect(map('phoneWithLidAlternative')).toMatchObject({
      message: { from: '5511955554444' },
      lid: { lid: '98765432109876', number: '5511955554444' },
    });
    expect(map('groupLidWithPhone')).toMatchObject({
      message: { from: '120363041234567890', isGroup: true, participant: '5511922221111', participantName: 'Dora' },
      participantLid: { lid: '77788899900011', number: '5511922221111' },
    });
    const alone = map('groupLidAlone');
    expect(alone).toMatchObject({ participantLid: { lid: '77788899900011' } });
    expect(alone?.kind === 'message' && alone.participantLid?.number).toBeFalsy();
  });

  it('what we wrote from the phone to a @lid chat never takes our own number (senderPn) as the customer', () => {
    const mapped = map('fromPhoneToLid');
    expect(mapped).toMatchObject({ message: { fromMe: true }, lid: { lid: '98765432109876' } });
    expect(mapped?.kind === 'message' && mapped.message.from).not.toBe('5511999990000');
    expect(mapped?.kind === 'message' && mapped.lid?.number).toBeFalsy();
  });
});
