import type { TMessage, TTicket } from '@zelo/shared';
import { useCallback, useState } from 'react';
import { ApiError } from '../../api/http';
import { toastError } from '../../components/toast';
import { ticketsApi } from './ticketsApi';
import { useStoreMessage } from './useMessages';

/** A text not stored by the server yet: shown with a clock, or with its reason and a retry when it failed. */
export type TLocalMessage = {
  clientId: string;
  body: string;
  quoted: TMessage | null;
  failed: boolean;
  /** why the server refused it (its catalogue code and words), when it failed */
  errorCode?: string;
  errorMessage?: string;
  createdAt: string;
};

/** The code and words of a refused send; a network failure reads as ERR_SENDING_WAPP_MSG. */
export const failureOf = (err: unknown): { errorCode: string; errorMessage: string; status?: number } =>
  err instanceof ApiError
    ? { errorCode: err.code, errorMessage: err.message, status: err.status }
    : { errorCode: 'ERR_SENDING_WAPP_MSG', errorMessage: err instanceof Error ? err.message : '' };

const newClientId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

const isMessage = (value: unknown): value is TMessage =>
  Boolean(value) &&
  typeof value === 'object' &&
  typeof (value as TMessage).id === 'number' &&
  'ticketId' in (value as object);

/** Local messages as bubbles: negative ids, ack 0; a failed one carries an error code. */
export const localAsMessage = (local: TLocalMessage, index: number, ticketId: number): TMessage => ({
  id: -(index + 1),
  ticketId,
  body: local.body,
  fromMe: true,
  read: true,
  ack: 0,
  mediaType: null,
  mediaUrl: null,
  mediaName: null,
  isDeleted: false,
  isEdited: false,
  isPrivate: false,
  source: 'agent',
  userId: null,
  errorCode: local.failed ? (local.errorCode ?? 'ERR_SENDING_WAPP_MSG') : null,
  errorMessage: local.failed ? (local.errorMessage ?? null) : null,
  quotedMsg: local.quoted
    ? {
        id: local.quoted.id,
        body: local.quoted.body,
        fromMe: local.quoted.fromMe,
        mediaType: local.quoted.mediaType,
        contact: local.quoted.contact,
      }
    : null,
  contact: null,
  createdAt: local.createdAt,
  updatedAt: local.createdAt,
});

/**
 * Sending from the composer: texts (JSON, with a client id so a retry is stored once) and files (multipart
 * `medias`, in order). What the server answers goes straight into the conversation.
 */
export const useSendMessages = (ticket: TTicket, onRefused?: (errorCode: string) => void) => {
  const storeMessage = useStoreMessage();
  const [locals, setLocals] = useState<TLocalMessage[]>([]);

  const postText = useCallback(
    async (local: TLocalMessage): Promise<ReturnType<typeof failureOf> | null> => {
      setLocals((list) => [...list.filter((l) => l.clientId !== local.clientId), { ...local, failed: false }]);
      try {
        const answer = await ticketsApi.sendText(ticket.id, {
          body: local.body,
          quotedMsg: local.quoted ? { id: local.quoted.id } : null,
          clientId: local.clientId,
        });
        if (isMessage(answer)) {
          storeMessage(answer);
        }
        setLocals((list) => list.filter((l) => l.clientId !== local.clientId));

        return null;
      } catch (err) {
        const failure = failureOf(err);
        setLocals((list) => list.map((l) => (l.clientId === local.clientId ? { ...l, failed: true, ...failure } : l)));
        toastError(err);
        onRefused?.(failure.errorCode);

        return failure;
      }
    },
    [ticket.id, storeMessage, onRefused],
  );

  const sendText = useCallback(
    (body: string, quoted: TMessage | null) =>
      postText({ clientId: newClientId(), body, quoted, failed: false, createdAt: new Date().toISOString() }),
    [postText],
  );

  const sendFiles = useCallback(
    async (files: File[], caption: string) => {
      const form = new FormData();
      form.append('fromMe', 'true');
      for (const file of files) {
        form.append('medias', file, file.name);
        form.append('body', caption.trim() || file.name);
      }
      try {
        const answer = await ticketsApi.sendMedia(ticket.id, form);
        for (const message of Array.isArray(answer) ? answer : [answer]) {
          if (isMessage(message)) {
            storeMessage(message);
          }
        }

        return true;
      } catch (err) {
        toastError(err);
        onRefused?.(failureOf(err).errorCode);

        return false;
      }
    },
    [ticket.id, storeMessage, onRefused],
  );

  /**
   * Retry: a local failure (refused before it was stored) is posted again with its client id, so it is stored
   * once; a stored failed message is sent again as the same message (POST /messages/:id/retry).
   */
  const retry = useCallback(
    (message: TMessage) => {
      if (message.id < 0) {
        const local = locals[-message.id - 1];
        if (local) {
          void postText(local);
        }

        return;
      }
      // shown as on its way at once; the answer (or the update event) brings the outcome
      storeMessage({ ...message, ack: 1, errorCode: null, errorMessage: null });
      ticketsApi
        .retryMessage(message.id)
        .then((answer) => {
          if (isMessage(answer)) {
            storeMessage(answer);
          }
        })
        .catch((err: unknown) => {
          storeMessage(message);
          toastError(err);
          onRefused?.(failureOf(err).errorCode);
        });
    },
    [locals, postText, storeMessage, onRefused],
  );

  const localMessages = locals.map((local, index) => localAsMessage(local, index, ticket.id));

  return { localMessages, sendText, sendFiles, retry };
};
