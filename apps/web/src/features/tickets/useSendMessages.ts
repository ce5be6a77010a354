import type { TMessage, TTicket } from '@zelo/shared';
import { useCallback, useState } from 'react';
import { toastError } from '../../components/toast';
import { ticketsApi } from './ticketsApi';
import { useStoreMessage } from './useMessages';

/** A text not stored by the server yet: shown with a clock, or an error mark and a retry when it failed. */
export type TLocalMessage = {
  clientId: string;
  body: string;
  quoted: TMessage | null;
  failed: boolean;
  createdAt: string;
};

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
  errorCode: local.failed ? 'ERR_SENDING_WAPP_MSG' : null,
  errorMessage: null,
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
export const useSendMessages = (ticket: TTicket) => {
  const storeMessage = useStoreMessage();
  const [locals, setLocals] = useState<TLocalMessage[]>([]);

  const postText = useCallback(
    async (local: TLocalMessage) => {
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
      } catch (err) {
        setLocals((list) => list.map((l) => (l.clientId === local.clientId ? { ...l, failed: true } : l)));
        toastError(err);
      }
    },
    [ticket.id, storeMessage],
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

        return false;
      }
    },
    [ticket.id, storeMessage],
  );

  /** Retry: a local failure is sent again with its client id; a failed stored message is sent as a new one. */
  const retry = useCallback(
    (message: TMessage) => {
      if (message.id < 0) {
        const local = locals[-message.id - 1];
        if (local) {
          void postText(local);
        }

        return;
      }
      void sendText(message.body, null);
    },
    [locals, postText, sendText],
  );

  const localMessages = locals.map((local, index) => localAsMessage(local, index, ticket.id));

  return { localMessages, sendText, sendFiles, retry };
};
