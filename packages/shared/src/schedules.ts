import { z } from 'zod';
import { V, zId, zIdOrNone, zMoment, zMomentText, zPageNumber } from './common.js';

export const SCHEDULE_STATUSES = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const;
export type TScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** the body's minimum length (spec 1 §5: 'Mensagem muito curta') */
export const SCHEDULE_BODY_MIN = 5;

/** reasons the sender writes to `errorMessage` besides an error code (the web app shows `schedules.reasons.<key>`) */
export const SCHEDULE_REASONS = ['late', 'planDisabled', 'noConnection', 'deletedContact'] as const;

/** a schedule's send time: a moment (common.ts), required */
export const zScheduleMoment = zMoment({ error: V.required }).min(1, V.required).pipe(zMomentText);

/** the contact: an id; the ancestor's dialog sends "" until one is chosen */
const zContactId = z
  .union([zId, z.literal('').transform(() => undefined)], { error: V.required })
  .pipe(z.number({ error: V.required }));

/**
 * POST /schedules, also the ancestor's ScheduleModal (`{body, contactId, sendAt, sentAt: "", userId}`; its
 * `userId` and `sentAt` are read and ignored: the author is the caller and only the sender sets `sentAt`).
 */
export const ZScheduleBody = z.object({
  body: z
    .string({ error: V.required })
    .trim()
    .min(1, V.required)
    .min(SCHEDULE_BODY_MIN, V.messageTooShort)
    .max(4096, V.tooLong),
  contactId: zContactId,
  sendAt: zScheduleMoment,
  /** the connection; none = the contact's last ticket's connection, else the company's default */
  whatsappId: zIdOrNone.optional(),
  /** the ticket it was scheduled from (the conversation's menu) */
  ticketId: zIdOrNone.optional(),
});
export type TScheduleBody = z.infer<typeof ZScheduleBody>;

/**
 * PUT /schedules/:id: only the fields sent change. The ancestor sends the whole record it read back (with
 * `id`, `status`, `contact`, `user`, …): what is not listed here is ignored.
 */
export const ZScheduleUpdateBody = z.object({
  body: ZScheduleBody.shape.body.optional(),
  contactId: zContactId.optional(),
  sendAt: zScheduleMoment.optional(),
  whatsappId: zIdOrNone.optional(),
});
export type TScheduleUpdateBody = z.infer<typeof ZScheduleUpdateBody>;

const zOptionalId = z.union([zId, z.literal('').transform(() => undefined)]).optional();

/** GET /schedules: the ancestor's searchParam/contactId/userId/pageNumber, and a date range for the calendar */
export const ZScheduleListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: zPageNumber,
  contactId: zOptionalId,
  userId: zOptionalId,
  /** sendAt from (inclusive) and to (exclusive), ISO instants: the calendar's visible range (up to 1,000 rows) */
  startDate: z.iso.datetime({ offset: true, error: V.invalid }).optional(),
  endDate: z.iso.datetime({ offset: true, error: V.invalid }).optional(),
});
export type TScheduleListQuery = z.infer<typeof ZScheduleListQuery>;

export const ZSchedule = z.object({
  id: z.number(),
  body: z.string(),
  sendAt: z.string(),
  sentAt: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUSES),
  contactId: z.number(),
  ticketId: z.number().nullable(),
  userId: z.number().nullable(),
  whatsappId: z.number().nullable(),
  /** the attached image's public URL */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  /** why it was not sent (ERRO): an error code or one of SCHEDULE_REASONS */
  errorMessage: z.string().nullable(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string() }),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TSchedule = z.infer<typeof ZSchedule>;

/** `company-{id}-schedule` payloads (the ancestor's) */
export type TScheduleEvent =
  | { action: 'create' | 'update'; schedule: TSchedule }
  | { action: 'delete'; scheduleId: number };
