import { vcardToContact } from './vcard';

/**
 * Bodies of `POST /{phone-number-id}/messages` (Meta's "send messages" reference): every message carries
 * `messaging_product: "whatsapp"`, `recipient_type: "individual"`, `to` and `type`; a quoted reply adds
 * `context.message_id`. Media goes by an uploaded media `id` or by a public `link`.
 */

export type TMediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker';
export type TMediaRef = { id: string } | { link: string };

const base = (to: string, quotedExternalId?: string) => ({
  messaging_product: 'whatsapp',
  recipient_type: 'individual',
  to,
  ...(quotedExternalId ? { context: { message_id: quotedExternalId } } : {}),
});

/** the kinds the Cloud API plays as such; anything else travels as a document */
export const mediaKindOf = (mimetype: string): TMediaKind => {
  const mime = mimetype.split(';')[0].trim().toLowerCase();
  if (mime === 'image/jpeg' || mime === 'image/png') return 'image';
  if (mime === 'image/webp') return 'sticker';
  if (mime === 'video/mp4' || mime === 'video/3gpp') return 'video';
  if (['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'].includes(mime)) return 'audio';

  return 'document';
};

const URL_IN_TEXT = /\bhttps?:\/\/\S/i;

export const textMessage = (to: string, body: string, quotedExternalId?: string) => ({
  ...base(to, quotedExternalId),
  type: 'text',
  text: { body, preview_url: URL_IN_TEXT.test(body) },
});

export const mediaMessage = (
  to: string,
  kind: TMediaKind,
  ref: TMediaRef,
  opts: { caption?: string; fileName?: string; quotedExternalId?: string } = {},
) => ({
  ...base(to, opts.quotedExternalId),
  type: kind,
  [kind]: {
    ...ref,
    // audio and stickers carry no caption; only documents carry a file name
    ...(opts.caption && kind !== 'audio' && kind !== 'sticker' ? { caption: opts.caption } : {}),
    ...(opts.fileName && kind === 'document' ? { filename: opts.fileName } : {}),
  },
});

export const locationMessage = (
  to: string,
  location: { latitude: number; longitude: number; description?: string },
  quotedExternalId?: string,
) => ({
  ...base(to, quotedExternalId),
  type: 'location',
  location: {
    latitude: location.latitude,
    longitude: location.longitude,
    ...(location.description ? { name: location.description } : {}),
  },
});

export const contactsMessage = (to: string, vcard: string, quotedExternalId?: string) => ({
  ...base(to, quotedExternalId),
  type: 'contacts',
  contacts: [vcardToContact(vcard)],
});

/** an empty emoji removes the reaction */
export const reactionMessage = (to: string, messageId: string, emoji: string) => ({
  ...base(to),
  type: 'reaction',
  reaction: { message_id: messageId, emoji },
});

/** marks the message (and the earlier ones of the chat) read */
export const readReceipt = (messageId: string) => ({
  messaging_product: 'whatsapp',
  status: 'read',
  message_id: messageId,
});
