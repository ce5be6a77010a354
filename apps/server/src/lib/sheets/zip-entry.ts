// One zip entry unpacked as a stream of chunks, counting the bytes it really yields: more than the central
// directory declared for it, or more than the whole read's budget, stops the read (a lying directory).
import { createInflateRaw } from 'node:zlib';
import { SheetError, type TZipEntry } from './zip-directory';

const LOCAL = 0x04034b50;
const CHUNK = 64 * 1024;

/** how many unpacked bytes one read may still produce, shared by its entries */
export type TByteBudget = { left: number; total: number };

const unreadable = (why: string) => new SheetError('unreadable', `The file is not a readable .xlsx workbook (${why})`);

const count = (entry: TZipEntry, budget: TByteBudget, seen: number) => {
  if (seen > entry.size) {
    throw new SheetError('too-large', 'The workbook unpacks to more than its zip directory declares');
  }
  if (budget.left < 0) {
    throw new SheetError('too-large', `The workbook unpacks to more than ${Math.round(budget.total / 1024 / 1024)} MB`);
  }
};

/** the entry's bytes, unpacked on demand (the consumer's pace), at most CHUNK at a time */
export async function* entryChunks(data: Buffer, entry: TZipEntry, budget: TByteBudget): AsyncGenerator<Buffer> {
  const at = entry.localOffset;
  if (at + 30 > data.length || data.readUInt32LE(at) !== LOCAL) throw unreadable('broken entry');
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > data.length) throw unreadable('entry out of bounds');
  const packed = data.subarray(start, end);
  let seen = 0;
  if (entry.method === 0) {
    for (let i = 0; i < packed.length; i += CHUNK) {
      const chunk = packed.subarray(i, i + CHUNK);
      seen += chunk.length;
      budget.left -= chunk.length;
      count(entry, budget, seen);
      yield chunk;
    }

    return;
  }
  if (entry.method !== 8) throw unreadable(`compression method ${entry.method}`);
  const inflate = createInflateRaw({ chunkSize: CHUNK });
  inflate.end(packed);
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      seen += chunk.length;
      budget.left -= chunk.length;
      count(entry, budget, seen);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof SheetError) throw error;
    throw unreadable('corrupt data');
  } finally {
    inflate.destroy();
  }
}
