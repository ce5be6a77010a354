import { describe, expect, it } from 'vitest';
import { signDelivery } from './deliveries';
import { richTextToWhatsApp } from './rich-text';
import { parseControl } from './typebot';

describe('Typebot texts', () => {
  it('turns rich text into WhatsApp markup, one line per block, links with their URL', () => {
    const blocks = [
      { type: 'p', children: [{ text: 'Olá ' }, { text: 'Maria', bold: true }, { text: '!' }] },
      {
        type: 'p',
        children: [
          { text: 'leia ', italic: true },
          { type: 'a', url: 'https://x.example', children: [{ text: 'aqui' }] },
        ],
      },
      { type: 'p', children: [{ text: 'riscado ', underline: true }] },
    ];
    expect(richTextToWhatsApp(blocks)).toBe('Olá *Maria*!\n_leia_ aqui (https://x.example)\n~riscado~ ');
    expect(richTextToWhatsApp(undefined)).toBe('');
  });

  it('reads control commands and nothing else', () => {
    expect(parseControl('#{"stopBot":true}')).toEqual({ stopBot: true, queueId: undefined, userId: undefined });
    expect(parseControl(' #{"queueId":3,"userId":"7"}')).toEqual({ stopBot: false, queueId: 3, userId: 7 });
    expect(parseControl('#{"queueId":-1}')).toEqual({ stopBot: false, queueId: undefined, userId: undefined });
    expect(parseControl('#hashtag')).toBeNull();
    expect(parseControl('#{not json')).toBeNull();
    expect(parseControl('oi')).toBeNull();
  });

  it('signs a delivery as HMAC-SHA256 over timestamp "." body (the value openssl gives)', () => {
    expect(signDelivery('k', '1700000000', '{"a":1}')).toBe(
      'sha256=1b6ad1bc9bf48c52ce01939866d5877c6cc4e87ddad27e16673cb8c4964394a3',
    );
  });
});
