// The central directory of an .xlsx (a zip), read before anything is unpacked: the entry count, every entry's
// declared sizes and compression ratio are checked against caps so a zip bomb is refused from its table of
// contents. The declared sizes can lie: zip-entry.ts counts the bytes actually unpacked as well.

/** why a file cannot be read: `unreadable` is a broken or unsupported zip, `too-large` breaks a cap */
export class SheetError extends Error {
  constructor(
    readonly reason: 'unreadable' | 'too-large',
    message: string,
  ) {
    super(message);
  }
}

export type TZipLimits = {
  /** entries in the archive (a workbook has a dozen; thousands mean a crafted file) */
  maxEntries: number;
  /** the declared unpacked size of all entries together */
  maxUnzippedBytes: number;
  /** unpacked ÷ packed size of one entry, checked on entries above 1 MiB unpacked */
  maxRatio: number;
};

export type TZipEntry = {
  name: string;
  /** 0 stored, 8 deflated; anything else is refused when read */
  method: number;
  compressedSize: number;
  /** as the central directory declares it */
  size: number;
  localOffset: number;
};

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const RATIO_FLOOR = 1024 * 1024;

const unreadable = (why: string) => new SheetError('unreadable', `The file is not a readable .xlsx workbook (${why})`);

/** the end-of-central-directory record: the last "PK\5\6" within the final 64 KiB + 22 bytes */
const findEnd = (data: Buffer) => {
  const stop = Math.max(0, data.length - 22 - 0xffff);
  for (let at = data.length - 22; at >= stop; at -= 1) {
    if (data.readUInt32LE(at) === EOCD && at + 22 + data.readUInt16LE(at + 20) <= data.length) return at;
  }
  throw unreadable('no zip directory');
};

/** Every entry of the zip's central directory, or a SheetError when it is broken or breaks a cap. */
export const readZipDirectory = (data: Buffer, limits: TZipLimits): TZipEntry[] => {
  if (data.length < 22) throw unreadable('too short');
  const end = findEnd(data);
  const declared = data.readUInt16LE(end + 10);
  const dirSize = data.readUInt32LE(end + 12);
  const dirOffset = data.readUInt32LE(end + 16);
  if (declared === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) throw unreadable('zip64');
  if (data.readUInt16LE(end + 4) !== 0 || data.readUInt16LE(end + 6) !== 0) throw unreadable('multi-part zip');
  if (declared > limits.maxEntries) throw tooManyEntries(limits);
  if (dirOffset + dirSize > end) throw unreadable('directory out of bounds');

  const entries: TZipEntry[] = [];
  let total = 0;
  let at = dirOffset;
  while (at < dirOffset + dirSize) {
    if (at + 46 > end || data.readUInt32LE(at) !== CENTRAL) throw unreadable('broken directory');
    if (entries.length >= limits.maxEntries) throw tooManyEntries(limits);
    const flags = data.readUInt16LE(at + 8);
    const nameLength = data.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    if (next > end) throw unreadable('broken directory');
    const entry: TZipEntry = {
      name: data.toString('utf8', at + 46, at + 46 + nameLength),
      method: data.readUInt16LE(at + 10),
      compressedSize: data.readUInt32LE(at + 20),
      size: data.readUInt32LE(at + 24),
      localOffset: data.readUInt32LE(at + 42),
    };
    if (flags & 1) throw unreadable('encrypted');
    if (entry.compressedSize === 0xffffffff || entry.size === 0xffffffff) throw unreadable('zip64');
    total += entry.size;
    if (total > limits.maxUnzippedBytes) {
      throw new SheetError(
        'too-large',
        `The workbook unpacks to more than ${Math.round(limits.maxUnzippedBytes / 1024 / 1024)} MB`,
      );
    }
    if (entry.size > RATIO_FLOOR && entry.size > entry.compressedSize * limits.maxRatio) {
      throw new SheetError('too-large', `The workbook is compressed more than ${limits.maxRatio} to 1`);
    }
    entries.push(entry);
    at = next;
  }
  if (entries.length !== declared) throw unreadable('directory count mismatch');

  return entries;
};

const tooManyEntries = (limits: TZipLimits) =>
  new SheetError('too-large', `The workbook holds more than ${limits.maxEntries} files`);
