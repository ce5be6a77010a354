import { z } from 'zod';
import { TICKET_STATUSES } from './constants.js';
import { V, zBool, zId, zIdOrNone, zPageNumber, zQueryBool } from './common.js';
import { ZContact } from './contacts.js';

/** `?queueIds=[1,2]` (JSON, as the ancestor's client sends) or `?queueIds=1,2` */
export const zIdList = z
  .union([z.array(z.coerce.number()), z.string()])
  .transform((v, ctx) => {
    if (Array.isArray(v)) return v;
    const text = v.trim();
    if (text === '') return [];
    try {
      const parsed = text.startsWith('[') ? JSON.parse(text) : text.split(',');

      return (parsed as unknown[]).map((x) => Number(x));
    } catch {
      ctx.addIssue({ code: 'custom', message: V.invalid });

      return z.NEVER;
    }
  })
  .pipe(z.array(z.number().int().positive()).max(500));

export const ZTicketListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: zPageNumber,
  status: z.enum(TICKET_STATUSES).optional(),
  queueIds: zIdList.optional(),
  tags: zIdList.optional(),
  users: zIdList.optional(),
  showAll: zQueryBool.optional(),
  withUnreadMessages: zQueryBool.optional(),
  /** yyyy-MM-dd: tickets updated that day (company time zone) */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, V.invalid)
    .optional(),
  updatedAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}/, V.invalid)
    .optional(),
});
export type TTicketListQuery = z.infer<typeof ZTicketListQuery>;

export const ZCreateTicketBody = z.object({
  contactId: zId,
  queueId: zIdOrNone.optional(),
  whatsappId: zIdOrNone.optional(),
  userId: zIdOrNone.optional(),
  status: z.enum(TICKET_STATUSES).default('open'),
});
export type TCreateTicketBody = z.infer<typeof ZCreateTicketBody>;

export const ZUpdateTicketBody = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  userId: zIdOrNone.optional(),
  queueId: zIdOrNone.optional(),
  whatsappId: zIdOrNone.optional(),
  useIntegration: zBool.optional(),
  promptId: zIdOrNone.optional(),
  integrationId: zIdOrNone.optional(),
});
export type TUpdateTicketBody = z.infer<typeof ZUpdateTicketBody>;

export const ZTicketTag = z.object({ id: z.number(), name: z.string(), color: z.string() });

/**
 * The current cycle's service-level times (modules/sla), ISO instants or null: the client counts the time left
 * from them (no per-request work on the server). `startedAt` the cycle's start, `firstResponseAt` its first agent
 * reply; a due time is null when no target applies (or it is still being computed).
 */
export const ZTicketSla = z.object({
  startedAt: z.string().nullable(),
  firstResponseDueAt: z.string().nullable(),
  firstResponseAt: z.string().nullable(),
  resolutionDueAt: z.string().nullable(),
});
export type TTicketSla = z.infer<typeof ZTicketSla>;

export const ZTicket = z.object({
  id: z.number(),
  uuid: z.string(),
  status: z.enum(TICKET_STATUSES),
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  queueId: z.number().nullable(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string(), status: z.string() }).nullable(),
  contactId: z.number(),
  contact: ZContact.pick({ id: true, name: true, number: true, email: true, profilePicUrl: true, isGroup: true }),
  tags: z.array(ZTicketTag),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  /** always a string, never null */
  lastMessage: z.string(),
  unreadMessages: z.number(),
  useIntegration: z.boolean(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  code: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** added by Zelo (the ancestor's client ignores it) */
  sla: ZTicketSla.optional(),
});
export type TTicket = z.infer<typeof ZTicket>;

export const ZTicketNoteBody = z.object({
  note: z.string({ error: V.required }).trim().min(2, V.tooShort).max(4000, V.tooLong),
  ticketId: zId,
  contactId: zId,
});
export type TTicketNoteBody = z.infer<typeof ZTicketNoteBody>;

export const ZTicketNote = z.object({
  id: z.number(),
  note: z.string(),
  ticketId: z.number(),
  contactId: z.number(),
  user: z.object({ id: z.number(), name: z.string() }),
  createdAt: z.string(),
});
export type TTicketNote = z.infer<typeof ZTicketNote>;

export const ZTagsSyncBody = z.object({ ticketId: zId, tags: z.array(z.object({ id: zId })).max(100) });
