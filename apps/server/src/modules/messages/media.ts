import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TConfig } from '../../config';
import { mediaStore } from '../../media/store';

/** What a file really is, read from its first bytes; the client's label is never trusted. */
export type TDetectedType = { mime: string; ext: string; kind: 'image' | 'audio' | 'video' | 'application' };

const starts = (buf: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => buf[offset + i] === b);
const ascii = (buf: Buffer, text: string, offset = 0) =>
  buf.subarray(offset, offset + text.length).toString('latin1') === text;

const isUtf8Text = (buf: Buffer) => {
  const sample = buf.subarray(0, 4096);
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(
      sample.length < buf.length ? sample.subarray(0, sample.length - 4) : sample,
    );
    return true;
  } catch {
    return false;
  }
};

export const detectType = (buf: Buffer): TDetectedType => {
  if (starts(buf, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg', kind: 'image' };
  if (starts(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mime: 'image/png', ext: 'png', kind: 'image' };
  if (ascii(buf, 'GIF87a') || ascii(buf, 'GIF89a')) return { mime: 'image/gif', ext: 'gif', kind: 'image' };
  if (ascii(buf, 'RIFF') && ascii(buf, 'WEBP', 8)) return { mime: 'image/webp', ext: 'webp', kind: 'image' };
  if (ascii(buf, 'RIFF') && ascii(buf, 'WAVE', 8)) return { mime: 'audio/wav', ext: 'wav', kind: 'audio' };
  if (ascii(buf, '%PDF-')) return { mime: 'application/pdf', ext: 'pdf', kind: 'application' };
  if (ascii(buf, 'OggS')) {
    const head = buf.subarray(0, 64).toString('latin1');
    if (head.includes('theora')) return { mime: 'video/ogg', ext: 'ogv', kind: 'video' };
    return { mime: 'audio/ogg', ext: 'ogg', kind: 'audio' };
  }
  if (ascii(buf, 'ID3') || (buf[0] === 0xff && buf.length > 1 && (buf[1] & 0xe0) === 0xe0 && (buf[1] & 0x06) !== 0)) {
    return { mime: 'audio/mpeg', ext: 'mp3', kind: 'audio' };
  }
  if (buf[0] === 0xff && buf.length > 1 && (buf[1] & 0xf6) === 0xf0)
    return { mime: 'audio/aac', ext: 'aac', kind: 'audio' };
  if (ascii(buf, '#!AMR')) return { mime: 'audio/amr', ext: 'amr', kind: 'audio' };
  if (ascii(buf, 'fLaC')) return { mime: 'audio/flac', ext: 'flac', kind: 'audio' };
  if (ascii(buf, 'ftyp', 4)) {
    const brand = buf.subarray(8, 12).toString('latin1');
    if (brand.startsWith('M4A') || brand.startsWith('M4B')) return { mime: 'audio/mp4', ext: 'm4a', kind: 'audio' };
    if (brand.startsWith('qt')) return { mime: 'video/quicktime', ext: 'mov', kind: 'video' };
    if (brand.startsWith('3gp')) return { mime: 'video/3gpp', ext: '3gp', kind: 'video' };
    if (brand.startsWith('heic') || brand.startsWith('heix') || brand.startsWith('mif1')) {
      return { mime: 'image/heic', ext: 'heic', kind: 'image' };
    }
    return { mime: 'video/mp4', ext: 'mp4', kind: 'video' };
  }
  if (starts(buf, [0x1a, 0x45, 0xdf, 0xa3])) return { mime: 'video/webm', ext: 'webm', kind: 'video' };
  if (starts(buf, [0x50, 0x4b, 0x03, 0x04])) return { mime: 'application/zip', ext: 'zip', kind: 'application' };
  if (starts(buf, [0xd0, 0xcf, 0x11, 0xe0]))
    return { mime: 'application/x-ole-storage', ext: 'doc', kind: 'application' };
  if (isUtf8Text(buf)) return { mime: 'text/plain', ext: 'txt', kind: 'application' };

  return { mime: 'application/octet-stream', ext: 'bin', kind: 'application' };
};

/**
 * office documents are zip or OLE containers: keep the user's extension when it names one of those. Never an
 * extension a browser treats as active (xml, html, svg, js…): text is stored as `.txt` whatever its name says.
 */
const CONTAINER_EXTENSIONS: Record<string, string[]> = {
  zip: ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'zip'],
  doc: ['doc', 'xls', 'ppt', 'msg'],
  txt: ['txt', 'csv', 'json', 'log', 'md'],
};
const OFFICE_MIME: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  csv: 'text/csv',
};

/** the detected type, refined by the file name's extension only within the same container family */
export const resolveType = (buf: Buffer, fileName?: string): TDetectedType => {
  const detected = detectType(buf);
  const ext = fileName?.split('.').pop()?.toLowerCase() ?? '';
  if (CONTAINER_EXTENSIONS[detected.ext]?.includes(ext)) {
    return { ...detected, ext, mime: OFFICE_MIME[ext] ?? detected.mime };
  }

  return detected;
};

/** per-kind size limits (bytes) */
export const MEDIA_LIMITS = {
  image: 16 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  video: 64 * 1024 * 1024,
  application: 100 * 1024 * 1024,
} as const;
export const MAX_UPLOAD_BYTES = MEDIA_LIMITS.application;

/** the local media folder (DATA_DIR/media); with MEDIA_STORE=s3 nothing is kept there */
export const mediaDir = (config: TConfig) => resolve(config.dataDir, 'media');

/** every extension a stored file may have: what detectType and its refinements answer, nothing a browser runs */
const STORED_EXTENSIONS = new Set([
  ...['jpg', 'png', 'gif', 'webp', 'heic'],
  ...['wav', 'ogg', 'mp3', 'aac', 'amr', 'flac', 'm4a', 'webm', 'ogv', 'mov', '3gp', 'mp4'],
  ...['pdf', 'zip', 'bin', ...Object.values(CONTAINER_EXTENSIONS).flat()],
]);

/** the extension a file is stored under: one of STORED_EXTENSIONS, else `bin` (served as a download) */
export const storedExtension = (ext: string) => {
  const lower = ext.toLowerCase();

  return STORED_EXTENSIONS.has(lower) ? lower : 'bin';
};

/** a new random, unguessable name with a safe extension */
const newMediaName = (ext: string) => `${randomBytes(16).toString('hex')}.${storedExtension(ext)}`;

/** writes the bytes to the media store (media/store.ts) under a random, unguessable name and a safe extension; answers that name */
export const storeMediaFile = async (config: TConfig, data: Buffer, ext: string) => {
  const name = newMediaName(ext);
  await (await mediaStore(config)).put(name, data);

  return name;
};

/**
 * Stores `data` as a new media file, sharing the bytes of the stored file `source` (a campaign's media, a file
 * list's file) when it holds them: a hard link on the local folder, a server-side copy in a bucket, so each
 * message keeps a file of its own (deleting one never touches the other) without sending the bytes again per
 * recipient. Falls back to writing the bytes when the source is gone, differs, or the store refuses.
 */
export const storeMediaFileLike = async (config: TConfig, data: Buffer, ext: string, source: string | undefined) => {
  if (!source) return storeMediaFile(config, data, ext);
  const name = newMediaName(ext);
  const store = await mediaStore(config);
  const shared = await store.duplicate(basename(source), name, data).catch(() => false);
  if (shared) return name;

  return storeMediaFile(config, data, ext);
};

/** the bytes of a stored media file (a retried send) */
export const readMediaFile = async (config: TConfig, name: string) => (await mediaStore(config)).read(basename(name));

export const removeMediaFile = async (config: TConfig, name: string | null | undefined) => {
  if (!name) return;
  const store = await mediaStore(config);
  await store.remove(basename(name)).catch(() => undefined);
};

/**
 * Points a row at a new file: stores `data`, then runs `write` (a transaction that sets the row's media to the
 * stored name and answers the name it replaced). A write that fails removes the new file; once it committed the
 * replaced one is removed. Quick messages, announcements and later attachments share this order, so a file is
 * never left without its row nor a row without its file.
 */
export const replaceMediaFile = async <T>(
  config: TConfig,
  data: Buffer,
  ext: string,
  write: (stored: string) => Promise<{ value: T; previous: string | null }>,
): Promise<T> => {
  const stored = await storeMediaFile(config, data, ext);
  let written: { value: T; previous: string | null };
  try {
    written = await write(stored);
  } catch (err) {
    await removeMediaFile(config, stored);
    throw err;
  }
  if (written.previous !== stored) await removeMediaFile(config, written.previous);

  return written.value;
};

/** a safe display name: no path, no control characters */
export const cleanFileName = (name: string | undefined, fallback: string) => {
  const base = basename((name ?? '').replaceAll('\\', '/'))
    .split('')
    .filter((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127)
    .join('')
    .trim()
    .slice(0, 200);

  return base || fallback;
};

const run = promisify(execFile);

let ffmpegFound: string | null | undefined;
/** FFMPEG_PATH, else `ffmpeg` on the PATH; null when there is none */
export const findFfmpeg = async (config: Pick<TConfig, 'ffmpegPath'>) => {
  if (config.ffmpegPath) return existsSync(config.ffmpegPath) ? config.ffmpegPath : null;
  if (ffmpegFound !== undefined) return ffmpegFound;
  try {
    await run('ffmpeg', ['-version'], { timeout: 5000 });
    ffmpegFound = 'ffmpeg';
  } catch {
    ffmpegFound = null;
  }

  return ffmpegFound;
};

/**
 * Limits on ffmpeg reading a tenant's file: the input's size (WhatsApp's own media cap), the sound kept (a
 * crafted file may declare hours), the output's size, one thread, at most FFMPEG_AT_ONCE runs on the
 * server (the others wait), and a wall time after which the process is killed (SIGKILL: it cannot ignore it).
 */
export const FFMPEG_LIMITS = {
  inputBytes: 16 * 1024 * 1024,
  voiceNoteSeconds: 900,
  outputBytes: 16 * 1024 * 1024,
  timeoutMs: 60_000,
  atOnce: 2,
};

let ffmpegRunning = 0;
const ffmpegWaiting: (() => void)[] = [];

/** runs ffmpeg under FFMPEG_LIMITS' thread, time and concurrency limits */
export const runFfmpeg = async (ffmpeg: string, args: string[], timeoutMs = FFMPEG_LIMITS.timeoutMs) => {
  if (ffmpegRunning >= FFMPEG_LIMITS.atOnce) await new Promise<void>((go) => ffmpegWaiting.push(go));
  else ffmpegRunning += 1;
  try {
    await run(ffmpeg, ['-nostdin', '-threads', '1', ...args], { timeout: timeoutMs, killSignal: 'SIGKILL' });
  } finally {
    const next = ffmpegWaiting.shift();
    if (next) next();
    else ffmpegRunning -= 1;
  }
};

/**
 * A browser recording (MP3, WebM, Ogg or MP4; ffmpeg reads the container) as an ogg/opus voice note; null when ffmpeg
 * is missing or fails, or the file is larger than FFMPEG_LIMITS allows. `sampleRate` resamples it (a speech API
 * that wants 16 kHz). The sound is cut at FFMPEG_LIMITS.voiceNoteSeconds.
 */
export const toVoiceNote = async (
  config: TConfig,
  data: Buffer,
  opts: { sampleRate?: number; timeoutMs?: number } = {},
): Promise<Buffer | null> => {
  if (data.length > FFMPEG_LIMITS.inputBytes) return null;
  const ffmpeg = await findFfmpeg(config);
  if (!ffmpeg) return null;
  const base = join(tmpdir(), `zelo-voice-${randomBytes(8).toString('hex')}`);
  const input = `${base}.rec`;
  const output = `${base}.ogg`;
  try {
    await writeFile(input, data);
    await runFfmpeg(
      ffmpeg,
      [
        ...['-y', '-loglevel', 'error', '-i', input, '-vn', '-ac', '1'],
        ...(opts.sampleRate ? ['-ar', String(opts.sampleRate)] : []),
        ...['-t', String(FFMPEG_LIMITS.voiceNoteSeconds), '-fs', String(FFMPEG_LIMITS.outputBytes)],
        ...['-c:a', 'libopus', '-b:a', '32k', output],
      ],
      opts.timeoutMs,
    );

    return await readFile(output);
  } catch {
    return null;
  } finally {
    await rm(input, { force: true });
    await rm(output, { force: true });
  }
};
