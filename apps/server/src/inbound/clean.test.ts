import { describe, expect, it } from 'vitest';
import { cleanInbound, cleanText } from './clean';

describe('cleanText', () => {
  it('removes NUL and replaces lone surrogates, keeping pairs and ordinary text', () => {
    expect(cleanText('a\u0000b\u0000')).toBe('ab');
    expect(cleanText('x\uD83Dy')).toBe('x\uFFFDy');
    expect(cleanText('x\uDE00y')).toBe('x\uFFFDy');
    expect(cleanText('ok 😀 ção')).toBe('ok 😀 ção');
    expect(cleanText('\uDE00\uD83D')).toBe('\uFFFD\uFFFD');
  });
});

describe('cleanInbound', () => {
  it('cleans every string of a message and keeps buffers, dates and functions', () => {
    const data = Buffer.from([0, 1, 2]);
    const at = new Date(0);
    const download = async () => ({ data, mimetype: 'image/png' });
    const raw = { key: { id: 'a\u0000' } };
    const cleaned = cleanInbound({
      body: 'hi\u0000',
      pushName: 'Ma\u0000ria',
      vcards: ['BEGIN\u0000'],
      location: { latitude: 1, longitude: 2, description: 'rua\uD800' },
      media: { data, mimetype: 'image/png', fileName: 'f\u0000.png' },
      lazy: download,
      timestamp: at,
      raw,
    });
    expect(cleaned).toEqual({
      body: 'hi',
      pushName: 'Maria',
      vcards: ['BEGIN'],
      location: { latitude: 1, longitude: 2, description: 'rua\uFFFD' },
      media: { data, mimetype: 'image/png', fileName: 'f.png' },
      lazy: download,
      timestamp: at,
      raw,
    });
    expect(cleaned.media.data).toBe(data);
    expect(cleaned.raw).toBe(raw);
  });
});
