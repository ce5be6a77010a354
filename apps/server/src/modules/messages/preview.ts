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

/** what the ticket list shows as an inbound message's last message (a file's kind when it has no caption) */
export const inboundPreview = (described: ReturnType<typeof describeInbound>, mediaKind?: string | null) =>
  described.mediaType === 'locationMessage'
    ? PREVIEW_LABELS.location
    : described.body.trim() || described.label || (mediaKind ? (KIND_LABEL[mediaKind] ?? '') : '');

/** what the ticket list shows for a message without text, as the pipeline and the senders store it */
const TYPE_LABEL: Record<string, string> = {
  ...KIND_LABEL,
  vcard: PREVIEW_LABELS.vcard,
  contactMessage: PREVIEW_LABELS.contactMessage,
  reactionMessage: 'reaction',
};

/**
 * A stored message as the ticket's last message: its text; a location as "Localização"; a file without a
 * caption by its name when we sent it, else by its kind.
 */
export const messagePreview = (m: Pick<TMessageRow, 'body' | 'mediaType' | 'mediaName' | 'fromMe'>) => {
  if (m.mediaType === 'locationMessage') return PREVIEW_LABELS.location;
  const text = m.body.trim();
  if (text) return text;
  if (m.fromMe && m.mediaName) return m.mediaName;

  return TYPE_LABEL[m.mediaType ?? ''] ?? '';
};
