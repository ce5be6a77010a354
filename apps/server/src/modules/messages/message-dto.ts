import type { TMessage } from '@zelo/shared';
import type { TConfig } from '../../config';
import type { TMessageJoinedRow } from './messages.repo';

/**
 * The link of a stored media file: `/public/<name>`, relative, so it works from whatever address the app is
 * reached at (localhost, 127.0.0.1, a LAN address, a proxy) and stays within the page's CSP (issue 22).
 */
export const mediaUrlOf = (name: string | null) => (name ? `/public/${name}` : null);

/** the API's message (spec 1 §3) */
export const toMessage = (_config: TConfig, row: TMessageJoinedRow) => {
  const m = row.message;
  const message: TMessage & { companyId: number; contactId: number | null; whatsappId: number | null } = {
    id: m.id,
    companyId: m.companyId,
    ticketId: m.ticketId,
    contactId: m.contactId,
    whatsappId: m.whatsappId,
    body: m.isDeleted ? '' : m.body,
    fromMe: m.fromMe,
    read: m.read,
    ack: m.ack,
    mediaType: m.mediaType,
    mediaUrl: m.isDeleted ? null : mediaUrlOf(m.mediaUrl),
    mediaName: m.mediaName,
    isDeleted: m.isDeleted,
    isEdited: m.isEdited,
    isPrivate: m.isPrivate,
    source: m.source,
    userId: m.userId,
    errorCode: m.errorCode,
    errorMessage: m.errorCode ? (m.errorMessage ?? null) : null,
    quotedMsg: row.quotedId
      ? {
          id: row.quotedId,
          body: row.quotedIsDeleted ? '' : (row.quotedBody ?? ''),
          fromMe: row.quotedFromMe ?? false,
          mediaType: row.quotedMediaType ?? null,
          contact: row.quotedContactName ? { name: row.quotedContactName } : null,
        }
      : null,
    contact: m.contactId && row.contactName ? { id: m.contactId, name: row.contactName } : null,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };

  return message;
};

export type TMessageDto = ReturnType<typeof toMessage>;
