import { AppError } from '../../http/errors';
import type { TInboundMessage, TMedia } from '../../channels/types';

/**
 * An inbound message as its delivery row keeps it (JSON text). Media already downloaded travels as base64;
 * media still to be downloaded keeps the transport's raw message (bytes as base64), from which the session
 * that holds the connection can download it again (`restoreMedia`); without one the pipeline records the
 * message with its download error, as for any media it could not fetch.
 */

type TStoredMedia = { data: string; mimetype: string; fileName?: string } | { lazy: true };

const BYTES = '$bytes';

function replacer(this: Record<string, unknown>, key: string, value: unknown) {
  const original = this[key];
  if (original instanceof Uint8Array) return { [BYTES]: Buffer.from(original).toString('base64') };

  return value;
}

const reviver = (_key: string, value: unknown) => {
  if (value && typeof value === 'object' && BYTES in value && Object.keys(value).length === 1) {
    return Buffer.from(String((value as Record<string, unknown>)[BYTES]), 'base64');
  }

  return value;
};

export const serializeInbound = (m: TInboundMessage): string => {
  const { media, raw, timestamp, ...rest } = m;
  let stored: TStoredMedia | undefined;
  if (typeof media === 'function') stored = { lazy: true };
  else if (media) stored = { data: media.data.toString('base64'), mimetype: media.mimetype, fileName: media.fileName };
  const at = timestamp instanceof Date && !Number.isNaN(timestamp.getTime()) ? timestamp.toISOString() : null;

  return JSON.stringify(
    { ...rest, timestamp: at, ...(stored ? { media: stored } : {}), ...(stored && 'lazy' in stored ? { raw } : {}) },
    replacer,
  );
};

export type TRestoreMedia = (connectionId: number, raw: unknown) => TInboundMessage['media'];

export const deserializeInbound = (payload: string, restoreMedia: TRestoreMedia): TInboundMessage => {
  const parsed = JSON.parse(payload, reviver) as Omit<TInboundMessage, 'media' | 'timestamp'> & {
    media?: TStoredMedia;
    timestamp: string | null;
  };
  const { media, timestamp, ...rest } = parsed;
  const message: TInboundMessage = { ...rest, timestamp: timestamp ? new Date(timestamp) : new Date() };
  if (media && 'lazy' in media) {
    message.media =
      restoreMedia(message.connectionId, parsed.raw) ??
      (async (): Promise<TMedia> => {
        throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'The media can no longer be downloaded');
      });
  } else if (media) {
    message.media = { data: Buffer.from(media.data, 'base64'), mimetype: media.mimetype, fileName: media.fileName };
  }

  return message;
};
