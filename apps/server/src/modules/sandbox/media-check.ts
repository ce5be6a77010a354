import { SANDBOX_MEDIA_MAX_BYTES, type TSandboxInboundType } from '@zelo/shared';
import type { TMedia } from '../../channels/types';
import { AppError } from '../../http/errors';

/**
 * Media a simulated customer sends is typed by its content (magic bytes), never by the sender's label:
 * an "image" that is a PDF is refused (415), a PNG labelled image/jpeg is stored as image/png.
 */

const starts = (buf: Buffer, bytes: number[] | string, at = 0) => {
  const sig = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);

  return buf.length >= at + sig.length && buf.subarray(at, at + sig.length).equals(sig);
};

const isText = (buf: Buffer) => {
  const sample = buf.subarray(0, 4096);
  if (sample.length === 0 || sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(
      sample.length < buf.length ? sample.subarray(0, sample.length - 4) : sample,
    );
  } catch {
    return false;
  }

  return true;
};

/** the type the bytes say they are, or undefined */
export const sniffMime = (buf: Buffer): string | undefined => {
  if (starts(buf, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(buf, 'GIF87a') || starts(buf, 'GIF89a')) return 'image/gif';
  if (starts(buf, 'RIFF') && starts(buf, 'WEBP', 8)) return 'image/webp';
  if (starts(buf, 'RIFF') && starts(buf, 'WAVE', 8)) return 'audio/wav';
  if (starts(buf, 'OggS')) return 'audio/ogg';
  if (starts(buf, '#!AMR')) return 'audio/amr';
  if (starts(buf, 'ID3')) return 'audio/mpeg';
  if (buf.length >= 2 && buf[0] === 0xff && (buf[1] & 0xf6) === 0xf0) return 'audio/aac';
  if (buf.length >= 2 && buf[0] === 0xff && (buf[1] & 0xe0) === 0xe0) return 'audio/mpeg';
  if (starts(buf, 'ftyp', 4)) {
    const brand = buf.subarray(8, 12).toString('latin1');
    if (brand === 'M4A ' || brand === 'M4B ') return 'audio/mp4';
    if (brand === 'qt  ') return 'video/quicktime';
    if (brand.startsWith('3g')) return 'video/3gpp';
    return 'video/mp4';
  }
  if (starts(buf, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  if (starts(buf, '%PDF-')) return 'application/pdf';
  if (starts(buf, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  if (starts(buf, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'application/x-cfb';
  if (starts(buf, [0x1f, 0x8b])) return 'application/gzip';
  if (starts(buf, 'Rar!')) return 'application/vnd.rar';
  if (starts(buf, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return 'application/x-7z-compressed';
  if (isText(buf)) return 'text/plain';

  return undefined;
};

/** office formats are zip or compound files inside: their label is kept when the container matches */
const CONTAINER_LABELS: Record<string, RegExp> = {
  'application/zip':
    /^application\/(vnd\.openxmlformats-officedocument\.[\w.+-]+|vnd\.oasis\.opendocument\.[\w.+-]+|zip|epub\+zip)$/,
  'application/x-cfb': /^application\/(msword|vnd\.ms-excel|vnd\.ms-powerpoint|vnd\.ms-outlook)$/,
  'text/plain': /^text\/(plain|csv|tab-separated-values|calendar|x-vcard|vcard)$/,
};

const MEDIA_TYPES: TSandboxInboundType[] = ['image', 'audio', 'voice', 'video', 'document', 'sticker'];

export const needsMedia = (type: TSandboxInboundType) => MEDIA_TYPES.includes(type);

const unsupported = (message: string) => new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', message);

/** the stored type of media of this message type, from its bytes */
export const checkMedia = (type: TSandboxInboundType, data: Buffer, label?: string, fileName?: string): TMedia => {
  if (data.length === 0) throw new AppError('ERR_VALIDATION', 'Empty media', [{ path: 'media', message: 'required' }]);
  if (data.length > SANDBOX_MEDIA_MAX_BYTES) throw new AppError('ERR_PAYLOAD_TOO_LARGE', 'The media is too large');
  const sniffed = sniffMime(data);
  const labelled = label?.toLowerCase().split(';')[0].trim();
  let mimetype: string | undefined;
  if (type === 'image' || type === 'sticker') {
    if (sniffed?.startsWith('image/')) mimetype = sniffed;
  } else if (type === 'audio' || type === 'voice') {
    if (sniffed?.startsWith('audio/')) mimetype = sniffed;
    // browser recordings come in webm or mp4 containers
    else if (sniffed === 'video/webm') mimetype = 'audio/webm';
    else if (sniffed === 'video/mp4') mimetype = 'audio/mp4';
  } else if (type === 'video') {
    if (sniffed?.startsWith('video/')) mimetype = sniffed;
  } else {
    const family = sniffed ? CONTAINER_LABELS[sniffed] : undefined;
    mimetype = labelled && family?.test(labelled) ? labelled : (sniffed ?? 'application/octet-stream');
    if (mimetype === 'application/x-cfb') mimetype = 'application/octet-stream';
  }
  if (!mimetype)
    throw unsupported(
      `The content is not ${type === 'image' || type === 'sticker' ? 'an image' : `a ${type}`} (${sniffed ?? 'unknown'})`,
    );
  const safeName = fileName
    ?.split(/[\\/]/)
    .pop()
    ?.split('')
    .filter((c) => c.charCodeAt(0) >= 32)
    .join('')
    .slice(0, 255);

  return { data, mimetype, ...(safeName ? { fileName: safeName } : {}) };
};

/** base64 (optionally a data: URL) to bytes; refuses anything else */
export const decodeBase64 = (value: string): Buffer => {
  const raw = value.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (raw.length === 0 || raw.length % 4 === 1 || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(raw)) {
    throw new AppError('ERR_VALIDATION', 'The media is not valid base64', [{ path: 'media.data', message: 'invalid' }]);
  }
  if (Math.floor((raw.length * 3) / 4) > SANDBOX_MEDIA_MAX_BYTES + 3) {
    throw new AppError('ERR_PAYLOAD_TOO_LARGE', 'The media is too large');
  }

  return Buffer.from(raw, 'base64');
};
