/**
 * The media store: every media file Zelo keeps (customers' and agents' attachments, campaign, schedule, quick
 * message, announcement and flow files) is written, read, listed and removed through this one interface, chosen
 * by MEDIA_STORE: `local` (the default, DATA_DIR/media: local-store.ts) or `s3` (any S3-compatible bucket through
 * the AWS SDK v3: s3-store.ts, loaded only when chosen). Names are flat (`<random or content hash>.<safe ext>`,
 * modules/messages/media.ts decides them); the store never sees a path.
 *
 * Downloads are served through Zelo (`/public/<name>`, media/serve.ts), never by a signed URL to the bucket: the
 * security headers (http/security-headers.ts: nosniff, inline only for the listed types, a sandboxing CSP and
 * `attachment` for everything else) stay Zelo's on every store, and the bucket can stay private.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { TConfig, TMediaConfig } from '../config';
import { createLocalStore } from './local-store';

/** one HTTP byte range: from `start` (to `end`, inclusive), or the last `suffix` bytes */
export type TByteRange = { start: number; end?: number } | { suffix: number };

/** the bytes a range covers in a file of `size` bytes (inclusive), undefined when it covers none */
export const rangeWithin = (range: TByteRange, size: number) => {
  const start = 'suffix' in range ? Math.max(0, size - range.suffix) : range.start;
  const end = 'suffix' in range ? size - 1 : Math.min(range.end ?? size - 1, size - 1);
  if (size === 0 || start >= size || start > end || ('suffix' in range && range.suffix === 0)) return undefined;

  return { start, end };
};

export type TMediaEntry = { name: string; size: number };

/** a file opened for reading: its bytes (the range asked, or all), its whole size and what a cache checks */
export type TMediaRead = {
  body: Readable;
  /** bytes in `body` */
  length: number;
  /** the whole file's size */
  size: number;
  /** the bytes sent when a range was asked (inclusive) */
  range?: { start: number; end: number };
  etag?: string;
  lastModified?: Date;
};

export type TMediaStore = {
  kind: 'local' | 's3';
  /** a Buffer, or a stream (with its size when known) written through without holding it whole */
  put: (name: string, body: Buffer | Readable, opts?: { size?: number; sha256?: string }) => Promise<void>;
  /** the whole file (a send, a transcription); rejects with code ENOENT when it is not there */
  read: (name: string) => Promise<Buffer>;
  /** a stream of the file or of one range of it; undefined when it is not there, 'unsatisfiable' for a bad range */
  open: (name: string, range?: TByteRange) => Promise<TMediaRead | 'unsatisfiable' | undefined>;
  stat: (name: string) => Promise<{ size: number; sha256?: string } | undefined>;
  /** removes the file; a missing one is not an error */
  remove: (name: string) => Promise<void>;
  /**
   * stores `data` under `name` by sharing the bytes `source` already holds (a hard link on a disk, a server-side
   * copy in a bucket); false, storing nothing, when `source` is gone or holds other bytes
   */
  duplicate: (source: string, name: string, data: Buffer) => Promise<boolean>;
  /** every file, in no promised order */
  list: () => AsyncIterable<TMediaEntry>;
  close: () => void;
};

export const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** the media settings of a configuration; a hand-built one (a unit test's) means the local folder under dataDir */
export const mediaConfigOf = (config: Pick<TConfig, 'dataDir'> & { media?: TMediaConfig }): TMediaConfig =>
  config.media ?? { store: 'local', dir: resolve(config.dataDir, 'media') };

const stores = new Map<string, Promise<TMediaStore>>();

/** opens a store for these settings (not cached) */
export const openMediaStore = async (media: TMediaConfig): Promise<TMediaStore> => {
  if (media.store === 'local') return createLocalStore(media.dir);
  const { createS3Store } = await import('./s3-store');

  return createS3Store(media);
};

/** the store a configuration names, one per distinct setting in the process */
export const mediaStore = (config: Pick<TConfig, 'dataDir'> & { media?: TMediaConfig }): Promise<TMediaStore> => {
  const media = mediaConfigOf(config);
  const key = JSON.stringify(media);
  let store = stores.get(key);
  if (!store) {
    store = openMediaStore(media);
    stores.set(key, store);
    store.catch(() => stores.delete(key));
  }

  return store;
};

/** a stored name as the store accepts it: one plain file name, nothing that walks a path */
export const isMediaName = (name: string) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/.test(name) && !name.includes('..');
