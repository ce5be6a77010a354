import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { mediaContent } from './outbound';
import { THUMBNAIL_LIMITS } from './thumbnails';

/** a valid black-and-white PNG (1 bit a pixel: a large one stays small) */
const png = (width: number, height: number) => {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), body])) >>> 0);

    return Buffer.concat([head, Buffer.from(type), body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const row = 1 + Math.ceil(width / 8);

  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(row * height))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

describe('thumbnails of sent pictures', () => {
  it('are made here, so Baileys makes none, at most 32 pixels wide, with the picture’s size', async () => {
    const content = await mediaContent({ data: png(640, 480), mimetype: 'image/png' });
    expect(content).toMatchObject({ width: 640, height: 480, jpegThumbnail: expect.any(String) });
    const thumb = Buffer.from(content.jpegThumbnail as string, 'base64');
    expect(thumb.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it('are not made of a picture over the pixel limit (a small file that decodes to a huge one)', async () => {
    // 8,000 × 8,000: 64 M pixels in a few KB, over the 40 M limit and under sharp's own default of 268 M
    const side = 8000;
    expect(side * side).toBeGreaterThan(THUMBNAIL_LIMITS.pixels);
    const content = await mediaContent({ data: png(side, side), mimetype: 'image/png' });
    expect(content.jpegThumbnail).toBe('');
  });
});
