import type { TAttachmentChange } from '../../components/MediaAttachment';
import { events, type TQuickMessage, type TQuickMessageUpdateBody } from '@zelo/shared';
import { api } from '../../api/http';
import { useAuth } from '../../app/auth/AuthContext';
import { matchesSearch, useLiveList } from '../../components/kit';

export const QUICK_MESSAGES_QUERY_KEY = ['quick-messages', 'page'] as const;

const QUICK_MESSAGES_LIST = {
  queryKey: QUICK_MESSAGES_QUERY_KEY,
  itemsKey: 'records',
  matches: (q: TQuickMessage, search: string) => matchesSearch(search, q.shortcode, q.message),
};

/** `company-{id}-quickemessage` (the ancestor's spelling) */
export type TQuickMessageEvent =
  | { action: 'create' | 'update'; record: TQuickMessage }
  | { action: 'delete'; id: number | string };

export const quickMessageEventChange = (data: TQuickMessageEvent) =>
  data.action === 'delete' ? { remove: Number(data.id) } : { upsert: data.record };

/** The form for the upload: `file` and `typeArch`, as the ancestor's dialog sends them. */
export const attachmentForm = (file: File) => {
  const form = new FormData();
  form.append('typeArch', 'quickMessage');
  form.append('file', file, file.name);

  return form;
};

/**
 * Saves a quick message and then its attachment (the upload replaces an earlier file; a removal deletes it).
 * `knownId` is the record a previous, half-finished save already created, so a retry edits it.
 */
export const saveQuickMessage = async (
  knownId: number | null,
  body: TQuickMessageUpdateBody,
  attachment: TAttachmentChange,
  hadMedia: boolean,
  onCreated?: (record: TQuickMessage) => void,
): Promise<TQuickMessage> => {
  let saved =
    knownId === null
      ? await api.post<TQuickMessage>('/quick-messages', body)
      : await api.put<TQuickMessage>(`/quick-messages/${knownId}`, body);
  if (knownId === null) {
    onCreated?.(saved);
  }
  if (attachment.kind === 'attach') {
    saved = await api.upload<TQuickMessage>(
      `/quick-messages/${saved.id}/media-upload`,
      attachmentForm(attachment.file),
    );
  } else if (attachment.kind === 'remove' && hadMedia) {
    saved = await api.delete<TQuickMessage>(`/quick-messages/${saved.id}/media-upload`);
  }

  return saved;
};

/** GET /quick-messages page by page, kept in step with saves, deletes and the company's quick message events. */
export const useQuickMessagesList = (searchParam: string) => {
  const { user } = useAuth();

  // `upsert` after each step of a save (the record, then its file), so the list shows what the server holds
  return useLiveList<TQuickMessage, TQuickMessageEvent>({
    ...QUICK_MESSAGES_LIST,
    path: '/quick-messages',
    searchParam,
    params: { userId: user?.id },
    event: events.quickMessage,
    toChange: quickMessageEventChange,
  });
};
