import { PREVIEW_LABELS } from '@zelo/shared';
import type { TMessageRow } from './messages.repo';
import type { describeInbound } from './store-inbound';

/**
 * What the ticket list shows as a ticket's last message (`lastMessage`), for a message as it arrives and
 * for a message as stored. The labels are stored as they are, in Portuguese, as the reference does.
 */

/** what the ticket list shows for a file without a caption, by its kind */
export const KIND_LABEL: Record<string, string> = {
  image: PREVIEW_LABELS.image,
  audio: PREVIEW_LABELS.audio,
  video: PREVIEW_LABELS.video,
  application: PREVIEW_LABELS.application,
};

/**
 * A file's caption when it has a real one; a caption that is only a file name (what the web clients send as the
 * body of a file sent without words, a stored "2651e7….png") is none.
 */
export const realCaption = (caption: string | null | undefined, fileName?: string | null) => {
  const text = (caption ?? '').trim();
  if (!text) return '';
  if (fileName && text.toLowerCase() === fileName.trim().toLowerCase()) return '';

  return /^[^\s/\\]+\.[a-z0-9]{2,5}$/i.test(text) ? '' : text;
};

/** a file message as the ticket's last message: its real caption, else its kind ("Imagem"), never its name */
export const mediaPreview = (kind: string, caption: string | null | undefined, fileName?: string | null) =>
  realCaption(caption, fileName) || KIND_LABEL[kind] || PREVIEW_LABELS.application;

/** what the ticket list shows as an inbound message's last message (a file's kind when it has no caption) */
export const inboundPreview = (described: ReturnType<typeof describeInbound>, mediaKind?: string | null) =>
  described.mediaType === 'locationMessage'
    ? PREVIEW_LABELS.location
    : mediaKind && KIND_LABEL[mediaKind]
      ? mediaPreview(mediaKind, described.body)
      : described.body.trim() || described.label || '';

/** what the ticket list shows for a message without text, as the pipeline and the senders store it */
const TYPE_LABEL: Record<string, string> = {
  ...KIND_LABEL,
  vcard: PREVIEW_LABELS.vcard,
  contactMessage: PREVIEW_LABELS.contactMessage,
  reactionMessage: 'reaction',
};

/**
 * A stored message as the ticket's last message: its text; a location as "Localização"; a file by its real
 * caption, else by its kind (never by its stored name).
 */
export const messagePreview = (m: Pick<TMessageRow, 'body' | 'mediaType' | 'mediaName' | 'fromMe'>) => {
  if (m.mediaType === 'locationMessage') return PREVIEW_LABELS.location;
  if (m.mediaType && KIND_LABEL[m.mediaType]) return mediaPreview(m.mediaType, m.body, m.mediaName);
  const text = m.body.trim();
  if (text) return text;

  return TYPE_LABEL[m.mediaType ?? ''] ?? '';
};
