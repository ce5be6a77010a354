import { describe, expect, it } from 'vitest';
import type { TInboundMessage } from '../types';
import { isValidSignature, signBody } from './signature';
import { type TMapContext, mapWebhook } from './webhook-map';

const PNID = '106540352242922';

const ctx: TMapContext = {
  connectionId: 9,
  phoneNumberId: PNID,
  lang: 'en',
  download: async (id, hint) => ({ data: Buffer.from(id), mimetype: hint.mimetype ?? 'x/y', fileName: hint.fileName }),
};

/** one change of field "messages" with the given value, as Meta sends it */
const payload = (value: Record<string, unknown>, phoneNumberId = PNID) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
            ...value,
          },
        },
      ],
    },
  ],
});

const one = (message: Record<string, unknown>): TInboundMessage => {
  const out = mapWebhook(
    payload({
      contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
      messages: [{ from: '16505551234', id: 'wamid.X', timestamp: '1749416383', ...message }],
    }),
    ctx,
  );
  expect(out.messages).toHaveLength(1);

  return out.messages[0];
};

describe('Cloud API webhook mapping', () => {
  it('reads text with sender, push name, Meta timestamp and quoted context', () => {
    const m = one({ type: 'text', text: { body: 'Olá 😀' }, context: { from: '15550783881', id: 'wamid.Q' } });
    expect(m).toMatchObject({
      connectionId: 9,
      externalId: 'wamid.X',
      from: '16505551234',
      fromMe: false,
      isGroup: false,
      pushName: 'Sheena Nelson',
      type: 'text',
      body: 'Olá 😀',
      quotedExternalId: 'wamid.Q',
    });
    expect(m.timestamp.toISOString()).toBe('2025-06-08T20:59:43.000Z');
  });

  it('reads media as a download of the media id, voice notes, documents with their file name, stickers', async () => {
    const image = one({ type: 'image', image: { id: '111', mime_type: 'image/jpeg', sha256: 'abc', caption: 'look' } });
    expect(image).toMatchObject({ type: 'image', body: 'look' });
    expect(typeof image.media).toBe('function');
    const file = await (image.media as () => Promise<{ data: Buffer; mimetype: string }>)();
    expect(file.data.toString()).toBe('111');
    expect(file.mimetype).toBe('image/jpeg');
    expect(one({ type: 'audio', audio: { id: '2', mime_type: 'audio/ogg; codecs=opus', voice: true } }).type).toBe(
      'voice',
    );
    expect(one({ type: 'audio', audio: { id: '3', mime_type: 'audio/mpeg' } }).type).toBe('audio');
    expect(one({ type: 'video', video: { id: '4', mime_type: 'video/mp4' } }).type).toBe('video');
    expect(one({ type: 'sticker', sticker: { id: '5', mime_type: 'image/webp', animated: false } }).type).toBe(
      'sticker',
    );
    const doc = one({ type: 'document', document: { id: '6', filename: 'nota.pdf', mime_type: 'application/pdf' } });
    expect(doc.type).toBe('document');
    expect(((await (doc.media as () => Promise<{ fileName?: string }>)()) as { fileName?: string }).fileName).toBe(
      'nota.pdf',
    );
  });

  it('reads location, contacts (as vCards), reactions, button and list replies', () => {
    expect(
      one({ type: 'location', location: { latitude: -23.55, longitude: -46.63, name: 'Sé', address: 'Praça da Sé' } }),
    ).toMatchObject({
      type: 'location',
      location: { latitude: -23.55, longitude: -46.63, description: 'Sé - Praça da Sé' },
    });
    const card = one({
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Maria Silva', first_name: 'Maria', last_name: 'Silva' },
          phones: [{ phone: '+55 11 98888-7777', wa_id: '5511988887777', type: 'CELL' }],
          emails: [{ email: 'maria@example.com', type: 'WORK' }],
        },
      ],
    });
    expect(card.type).toBe('vcard');
    expect(card.vcards?.[0]).toContain('FN:Maria Silva');
    expect(card.vcards?.[0]).toContain('TEL;type=CELL;waid=5511988887777:+55 11 98888-7777');
    expect(card.vcards?.[0]).toContain('EMAIL:maria@example.com');
    const two = one({
      type: 'contacts',
      contacts: [{ name: { formatted_name: 'A' } }, { name: { formatted_name: 'B' } }],
    });
    expect(two.type).toBe('contacts');
    expect(two.vcards).toHaveLength(2);
    expect(one({ type: 'reaction', reaction: { message_id: 'wamid.R', emoji: '👍' } })).toMatchObject({
      type: 'reaction',
      body: '👍',
      quotedExternalId: 'wamid.R',
    });
    expect(
      one({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'b1', title: 'Sim' } } }),
    ).toMatchObject({ type: 'button_reply', body: 'Sim' });
    expect(
      one({ type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'l1', title: 'Suporte' } } }),
    ).toMatchObject({ type: 'list_reply', body: 'Suporte' });
    expect(one({ type: 'button', button: { payload: 'P', text: 'Quero' } })).toMatchObject({
      type: 'button_reply',
      body: 'Quero',
    });
  });

  it('turns unsupported and unknown types into a text placeholder in the company language', () => {
    expect(one({ type: 'unsupported', errors: [{ code: 131051, title: 'Message type unknown' }] })).toMatchObject({
      type: 'text',
      body: '[Message not supported by the WhatsApp Cloud API]',
    });
    expect(one({ type: 'order', order: { catalog_id: '1' } }).body).toBe('[Catalog order]');
  });

  it('reads statuses as acks, failed ones as errors, and edits and revokes as updates', () => {
    const out = mapWebhook(
      payload({
        statuses: [
          { id: 'wamid.A', status: 'sent', timestamp: '1', recipient_id: '1' },
          { id: 'wamid.A', status: 'delivered' },
          { id: 'wamid.A', status: 'read' },
          { id: 'wamid.V', status: 'played' },
          {
            id: 'wamid.F',
            status: 'failed',
            errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'More than 24 hours' } }],
          },
          { id: 'wamid.D', status: 'deleted' },
        ],
        messages: [
          {
            from: '1650',
            id: 'wamid.E1',
            type: 'edit',
            edit: { original_message_id: 'wamid.O', message: { type: 'text', text: { body: 'fixed' } } },
          },
          { from: '1650', id: 'wamid.E2', type: 'revoke', revoke: { original_message_id: 'wamid.O2' } },
        ],
      }),
      ctx,
    );
    expect(out.messages).toHaveLength(0);
    expect(out.updates).toEqual([
      { connectionId: 9, externalId: 'wamid.O', edit: { body: 'fixed' } },
      { connectionId: 9, externalId: 'wamid.O2', deleted: true },
      { connectionId: 9, externalId: 'wamid.A', ack: 2 },
      { connectionId: 9, externalId: 'wamid.A', ack: 3 },
      { connectionId: 9, externalId: 'wamid.A', ack: 4 },
      { connectionId: 9, externalId: 'wamid.V', ack: 5 },
      {
        connectionId: 9,
        externalId: 'wamid.F',
        error: { code: '131047', message: 'Re-engagement message: More than 24 hours' },
      },
    ]);
    expect(out.skipped.map((s) => s.reason)).toContain('status deleted');
  });

  it('skips other phone numbers, other fields and malformed parts without throwing', () => {
    const other = mapWebhook(
      payload({ messages: [{ from: '1', id: 'w', type: 'text', text: { body: 'x' } }] }, '999'),
      ctx,
    );
    expect(other.messages).toHaveLength(0);
    expect(other.skipped).toEqual([{ reason: 'another phone number id', detail: '999' }]);
    for (const bad of [
      null,
      'x',
      7,
      [],
      {},
      { object: 'page' },
      { object: 'whatsapp_business_account', entry: [null, { changes: 'x' }] },
    ]) {
      expect(() => mapWebhook(bad, ctx)).not.toThrow();
      expect(mapWebhook(bad, ctx).messages).toEqual([]);
    }
    const partial = mapWebhook(
      payload({
        messages: [null, { id: 'no-sender' }, { from: '1', id: 'w2', type: 'location', location: { latitude: 'x' } }],
        statuses: [{}],
      }),
      ctx,
    );
    expect(partial.messages).toEqual([]);
    expect(partial.updates).toEqual([]);
    const template = mapWebhook(
      {
        object: 'whatsapp_business_account',
        entry: [{ changes: [{ field: 'message_template_status_update', value: {} }] }],
      },
      ctx,
    );
    expect(template.skipped[0].reason).toBe('field message_template_status_update');
  });
});

describe('X-Hub-Signature-256', () => {
  it('holds only for the raw bytes and the app secret', () => {
    const raw = Buffer.from('{"a":"ação 😀"}');
    const header = signBody(raw, 'secret');
    expect(isValidSignature(raw, header, 'secret')).toBe(true);
    expect(isValidSignature(raw, header.toUpperCase().replace('SHA256=', 'sha256='), 'secret')).toBe(true);
    expect(isValidSignature(raw, header, 'other')).toBe(false);
    expect(isValidSignature(Buffer.from(JSON.stringify(JSON.parse(raw.toString()), null, 1)), header, 'secret')).toBe(
      false,
    );
    expect(isValidSignature(raw, undefined, 'secret')).toBe(false);
    expect(isValidSignature(raw, 'sha1=abc', 'secret')).toBe(false);
    expect(isValidSignature(raw, [header, header], 'secret')).toBe(false);
    expect(isValidSignature(raw, header, '')).toBe(false);
  });
});
