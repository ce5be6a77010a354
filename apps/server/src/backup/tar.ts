/**
 * The archive format: POSIX ustar, written and read here as streams (nothing held whole in memory). Entries are
 * regular files with short names (`db/messages/00001.copy`, `media/<name>`); a size up to 8 GiB - 1 (11 octal
 * digits); mode 0600. `writeEntry` hashes what it writes (SHA-256), so the manifest's checksums cost no second
 * read; a stream that ends short is padded with zeros and reported, so the archive stays readable.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

const BLOCK = 512;
const MAX_SIZE = 8 * 1024 ** 3 - 1;

const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;

/** one ustar header block */
export const tarHeader = (name: string, size: number, mtime: Date) => {
  if (Buffer.byteLength(name) > 100) throw new Error(`archive entry name too long: ${name}`);
  if (size > MAX_SIZE) throw new Error(`archive entry too large: ${name}`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o600, 8), 100, 'ascii');
  header.write(octal(0, 8), 108, 'ascii');
  header.write(octal(0, 8), 116, 'ascii');
  header.write(octal(size, 12), 124, 'ascii');
  header.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write('0', 156, 'ascii');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  header.write('zelo', 265, 'ascii');
  header.write('zelo', 297, 'ascii');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');

  return header;
};

export type TWritten = { size: number; sha256: string; short: boolean };

export const createTarWriter = (out: Writable) => {
  let bytes = 0;
  const write = async (chunk: Buffer) => {
    bytes += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  };
  const pad = async (size: number) => {
    const rest = size % BLOCK;
    if (rest) await write(Buffer.alloc(BLOCK - rest));
  };

  return {
    /** bytes written so far */
    get bytes() {
      return bytes;
    },
    /** a whole entry from a Buffer */
    add: async (name: string, data: Buffer, mtime = new Date()): Promise<TWritten> => {
      await write(tarHeader(name, data.length, mtime));
      await write(data);
      await pad(data.length);

      return { size: data.length, sha256: createHash('sha256').update(data).digest('hex'), short: false };
    },
    /** an entry of `size` bytes from a stream: more is cut, less is padded with zeros and reported `short` */
    addStream: async (
      name: string,
      size: number,
      body: Readable,
      mtime = new Date(),
      onBytes?: (n: number) => void,
    ): Promise<TWritten> => {
      await write(tarHeader(name, size, mtime));
      const hash = createHash('sha256');
      let left = size;
      let short = false;
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
          if (part.length > 0) {
            hash.update(part);
            await write(part);
            left -= part.length;
            onBytes?.(part.length);
          }
          if (left === 0) break;
        }
      } catch {
        short = true;
      } finally {
        body.destroy();
      }
      if (left > 0) {
        short = true;
        const zeros = Buffer.alloc(Math.min(left, 64 * 1024));
        while (left > 0) {
          const part = left >= zeros.length ? zeros : zeros.subarray(0, left);
          hash.update(part);
          await write(part);
          left -= part.length;
        }
      }
      await pad(size);

      return { size, sha256: hash.digest('hex'), short };
    },
    /** the two zero blocks that end an archive */
    finish: async () => {
      await write(Buffer.alloc(BLOCK * 2));
    },
  };
};

export type TTarEntry = { name: string; size: number; body: AsyncGenerator<Buffer> };

const field = (header: Buffer, start: number, length: number) => {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);

  return (end >= 0 ? raw.subarray(0, end) : raw).toString('utf8');
};

/**
 * The entries of an archive in order. Each entry's `body` yields its bytes; what a consumer leaves unread is
 * skipped before the next entry. Anything but a regular file (a directory, a pax header) is skipped.
 */
export async function* readTar(input: Readable): AsyncGenerator<TTarEntry> {
  const source = (input as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let buffer: Buffer = Buffer.alloc(0);
  const fill = async (n: number) => {
    while (buffer.length < n) {
      const next = await source.next();
      if (next.done) return false;
      buffer = buffer.length === 0 ? next.value : Buffer.concat([buffer, next.value]);
    }
    return true;
  };
  // what the entry being read still holds (its consumer may stop early: the rest is skipped)
  let entryLeft = 0;
  async function* bytes(size: number, entry: boolean): AsyncGenerator<Buffer> {
    let left = size;
    while (left > 0) {
      if (buffer.length === 0) {
        const next = await source.next();
        if (next.done) throw new Error('the archive ends inside an entry (truncated)');
        buffer = next.value;
      }
      const take = Math.min(left, buffer.length);
      const part = buffer.subarray(0, take);
      buffer = buffer.subarray(take);
      left -= take;
      if (entry) entryLeft -= take;
      yield part;
    }
  }

  while (true) {
    if (!(await fill(BLOCK))) throw new Error('the archive ends without its end blocks (truncated)');
    const header = buffer.subarray(0, BLOCK);
    buffer = buffer.subarray(BLOCK);
    if (header.every((b) => b === 0)) return;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (header[i] as number);
    if (Number.parseInt(field(header, 148, 8).trim(), 8) !== sum) throw new Error('not a tar archive (bad header)');
    const prefix = field(header, 345, 155);
    const name = prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1);
    const padded = Math.ceil(size / BLOCK) * BLOCK;
    entryLeft = size;
    if (type === '0' || type === '') yield { name, size, body: bytes(size, true) };
    // what the consumer left unread, then the padding
    for await (const _ of bytes(entryLeft + padded - size, false)) {
      // skipped
    }
  }
}
