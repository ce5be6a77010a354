import { constants, crc32, createDeflateRaw } from 'node:zlib';

/**
 * A ZIP file written front to back into a sink, one entry at a time, for the XLSX exports (xlsx-writer.ts): each
 * entry's bytes are deflated as they come and its CRC-32 and sizes follow it in a data descriptor (general purpose
 * bit 3), so nothing is held but the current chunk; the central directory closes the file. No ZIP64: an entry or the
 * file past 4 GiB is refused (a year's conversations of a large company is tens of MB).
 */

export type TZipSink = {
  /** resolves once the sink can take more (the reader's pace) */
  write: (chunk: Buffer) => Promise<void>;
};

type TEntryRecord = { name: Buffer; crc: number; compressed: number; size: number; offset: number };

const LIMIT = 0xffff_ffff;
/** 1980-01-01 00:00 in MS-DOS time and date: entries carry no meaningful time */
const DOS_TIME = 0;
const DOS_DATE = (1 << 5) | 1;

export const createZipWriter = (sink: TZipSink, level = constants.Z_BEST_SPEED) => {
  const entries: TEntryRecord[] = [];
  let offset = 0;
  const put = async (chunk: Buffer) => {
    offset += chunk.length;
    if (offset > LIMIT) throw new Error('the ZIP file is larger than 4 GiB');
    await sink.write(chunk);
  };

  return {
    /** one entry, its content given as chunks (strings are UTF-8) */
    entry: async (name: string, content: AsyncIterable<string | Buffer> | Iterable<string | Buffer>) => {
      const nameBytes = Buffer.from(name, 'utf8');
      const record: TEntryRecord = { name: nameBytes, crc: 0, compressed: 0, size: 0, offset };
      const header = Buffer.alloc(30);
      header.writeUInt32LE(0x04034b50, 0);
      header.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
      header.writeUInt16LE(0x0808, 6); // sizes in the data descriptor; names in UTF-8
      header.writeUInt16LE(8, 8); // deflate
      header.writeUInt16LE(DOS_TIME, 10);
      header.writeUInt16LE(DOS_DATE, 12);
      // crc and sizes (14–25) stay 0: in the data descriptor
      header.writeUInt16LE(nameBytes.length, 26);
      await put(Buffer.concat([header, nameBytes]));

      const deflate = createDeflateRaw({ level });
      const compressed: Buffer[] = [];
      deflate.on('data', (c: Buffer) => compressed.push(c));
      const flushOut = async () => {
        while (compressed.length > 0) {
          const c = compressed.shift()!;
          record.compressed += c.length;
          await put(c);
        }
      };
      for await (const part of content) {
        const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
        if (bytes.length === 0) continue;
        record.crc = crc32(bytes, record.crc);
        record.size += bytes.length;
        if (record.size > LIMIT) throw new Error(`the ZIP entry ${name} is larger than 4 GiB`);
        // a chunk in, its deflated bytes out before the next (memory of one chunk)
        // (the write's callback runs once the chunk is deflated and its output pushed)
        await new Promise<void>((done, fail) => deflate.write(bytes, (err) => (err ? fail(err) : done())));
        await flushOut();
      }
      await new Promise<void>((done, fail) => {
        deflate.once('end', done);
        deflate.once('error', fail);
        deflate.end();
      });
      await flushOut();

      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(record.crc >>> 0, 4);
      descriptor.writeUInt32LE(record.compressed, 8);
      descriptor.writeUInt32LE(record.size, 12);
      await put(descriptor);
      entries.push(record);
    },
    /** the central directory and its end record */
    finish: async () => {
      const start = offset;
      for (const e of entries) {
        const central = Buffer.alloc(46);
        central.writeUInt32LE(0x02014b50, 0);
        central.writeUInt16LE(20, 4); // made by: 2.0
        central.writeUInt16LE(20, 6);
        central.writeUInt16LE(0x0808, 8);
        central.writeUInt16LE(8, 10);
        central.writeUInt16LE(DOS_TIME, 12);
        central.writeUInt16LE(DOS_DATE, 14);
        central.writeUInt32LE(e.crc >>> 0, 16);
        central.writeUInt32LE(e.compressed, 20);
        central.writeUInt32LE(e.size, 24);
        central.writeUInt16LE(e.name.length, 28);
        // extra, comment, disk, attributes: 0
        central.writeUInt32LE(e.offset, 42);
        await put(Buffer.concat([central, e.name]));
      }
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(entries.length, 8);
      end.writeUInt16LE(entries.length, 10);
      end.writeUInt32LE(offset - start, 12);
      end.writeUInt32LE(start, 16);
      await put(end);
    },
  };
};
