import { z } from 'zod';
import { V, zBool, zPageNumber } from './common.js';

export const MEDIA_TYPES = [
  'image',
  'audio',
  'video',
  'application',
  'locationMessage',
  'vcard',
  'contactMessage',
  'call_log',
] as const;

export const ZMessageListQuery = z.object({ pageNumber: zPageNumber });

/** the longest text a message may carry (the composer counts against it before sending) */
export const MESSAGE_BODY_MAX = 65_536;

/** POST /messages/:ticketId as JSON */
export const ZSendTextBody = z.object({
  body: z
    .string({ error: V.required })
    .max(MESSAGE_BODY_MAX, V.tooLong)
    .refine((v) => v.trim().length > 0, V.required),
  /** the quoted message: its id (or the stored message object, as the ancestor's client sends) */
  quotedMsg: z.union([z.object({ id: z.coerce.number() }).passthrough(), z.null()]).optional(),
  /** an id chosen by the client, so a retried send is stored once */
  clientId: z.string().max(64).optional(),
  read: zBool.optional(),
  fromMe: zBool.optional(),
  mediaUrl: z.string().max(2048).nullable().optional(),
});
export type TSendTextBody = z.infer<typeof ZSendTextBody>;

export const ZEditMessageBody = z.object({
  body: z
    .string({ error: V.required })
    .max(MESSAGE_BODY_MAX, V.tooLong)
    .refine((v) => v.trim().length > 0, V.required),
});

export const ZMessage = z.object({
  id: z.number(),
  ticketId: z.number(),
  body: z.string(),
  fromMe: z.boolean(),
  read: z.boolean(),
  /** 0 error, 1 pending, 2 server, 3 delivered, 4 read, 5 played */
  ack: z.number(),
  mediaType: z.string().nullable(),
  /** absolute URL of the media under /public, or null */
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  isPrivate: z.boolean(),
  source: z.string(),
  userId: z.number().nullable(),
  /** a failed send (ack 0): the catalogue code and the channel's own words, for the attendant */
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  quotedMsg: z
    .object({
      id: z.number(),
      body: z.string(),
      fromMe: z.boolean(),
      mediaType: z.string().nullable(),
      contact: z.object({ name: z.string() }).nullable(),
    })
    .nullable(),
  contact: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TMessage = z.infer<typeof ZMessage>;
