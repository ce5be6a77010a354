import { z } from 'zod';
import { V, zBool, zHexColor, zId, zIdOrNone, zNumeric, zNumericOrNone } from './common.js';
import { ZWorkingHour } from './companies.js';

/** spec 2 §5: the queue dialog's own messages for its name (i18n keys `validation.<key>`, like V's) */
export const QUEUE_NAME_MESSAGES = { required: 'nameRequired', short: 'nameShort', long: 'nameLong' } as const;

const zQueueName = z
  .string({ error: QUEUE_NAME_MESSAGES.required })
  .trim()
  .min(1, { error: QUEUE_NAME_MESSAGES.required, abort: true })
  .min(2, QUEUE_NAME_MESSAGES.short)
  .max(50, QUEUE_NAME_MESSAGES.long);

/** spec 2 §3: Monday–Friday 08:00–18:00, Saturday 08:00–12:00, Sunday 00:00–00:00 */
export const DEFAULT_QUEUE_SCHEDULES = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];

/**
 * A queue's working day: HH:mm times, or both left empty (the ancestor's form sends `""` for a cleared field),
 * which is open all day (inbound/working-hours.ts).
 */
const zQueueTime = z.union([ZWorkingHour.shape.startTime, z.literal('')], { error: V.invalid });
export const ZQueueWorkingHour = ZWorkingHour.extend({ startTime: zQueueTime, endTime: zQueueTime }).superRefine(
  (row, ctx) => {
    if ((row.startTime === '') !== (row.endTime === '')) {
      ctx.addIssue({ code: 'custom', message: V.required, path: [row.startTime === '' ? 'startTime' : 'endTime'] });
    }
  },
);

const zOrderQueue = zNumericOrNone(z.number().int(V.invalid).min(0, V.invalid).max(10000, V.tooLong));

/**
 * Fair automatic assignment (issue 25, server modules/assignment): off by default; an agent takes tickets from
 * this queue while it holds fewer than `autoAssignMax` open tickets (all its queues counted)
 */
export const AUTO_ASSIGN_MAX = { min: 1, max: 100, default: 5 } as const;
const zAutoAssignMax = zNumeric(
  z.number().int(V.invalid).min(AUTO_ASSIGN_MAX.min, V.invalid).max(AUTO_ASSIGN_MAX.max, V.invalid),
);

/**
 * Service-level targets (modules/sla): first response within N business minutes, resolution within M business
 * hours; `""` or null = none of the queue's own (the company default applies).
 */
export const SLA_MAX_FIRST_RESPONSE_MINUTES = 100_000;
export const SLA_MAX_RESOLUTION_HOURS = 10_000;
export const zSlaFirstResponseMinutes = zNumericOrNone(
  z.number().int(V.invalid).min(1, V.invalid).max(SLA_MAX_FIRST_RESPONSE_MINUTES, V.tooLong),
);
export const zSlaResolutionHours = zNumericOrNone(
  z.number().int(V.invalid).min(1, V.invalid).max(SLA_MAX_RESOLUTION_HOURS, V.tooLong),
);

export const ZQueueBody = z.object({
  name: zQueueName,
  color: zHexColor(),
  greetingMessage: z.string().max(4000, V.tooLong).default(''),
  outOfHoursMessage: z.string().max(4000, V.tooLong).default(''),
  /** `""` or null: no order */
  orderQueue: zOrderQueue.default(null),
  integrationId: zIdOrNone.default(null),
  promptId: zIdOrNone.default(null),
  schedules: z.array(ZQueueWorkingHour).max(7).default(DEFAULT_QUEUE_SCHEDULES),
  autoAssign: zBool.default(false),
  autoAssignMax: zAutoAssignMax.default(AUTO_ASSIGN_MAX.default),
  slaFirstResponseMinutes: zSlaFirstResponseMinutes.default(null),
  slaResolutionHours: zSlaResolutionHours.default(null),
});
export type TQueueBody = z.infer<typeof ZQueueBody>;

export const ZQueue = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  greetingMessage: z.string(),
  outOfHoursMessage: z.string(),
  orderQueue: z.number().nullable(),
  integrationId: z.number().nullable(),
  promptId: z.number().nullable(),
  schedules: z.array(ZQueueWorkingHour),
  autoAssign: z.boolean(),
  autoAssignMax: z.number(),
  /** service-level targets of the queue's own; null = the company default */
  slaFirstResponseMinutes: z.number().nullable().optional(),
  slaResolutionHours: z.number().nullable().optional(),
});
export type TQueue = z.infer<typeof ZQueue>;

/** the key a customer types for an option: text, or the number the ancestor's editor sends (`option: 1`) */
const zOptionKey = z
  .union([z.string(), z.number().int().min(0).max(999_999)], { error: V.invalid })
  .transform((v) => String(v).trim());

/** queue option: a node of the bot menu tree; parentId null (or -1 in queries) is the top level */
export const ZQueueOptionBody = z.object({
  queueId: zId,
  parentId: zIdOrNone.default(null),
  title: z.string().trim().min(1, V.required).max(100, V.tooLong),
  message: z.string().max(4000, V.tooLong).default(''),
  /** the key the customer types; numbered automatically when absent */
  option: zOptionKey.pipe(z.string().max(10, V.tooLong)).optional(),
});
export type TQueueOptionBody = z.infer<typeof ZQueueOptionBody>;

export const ZQueueOption = z.object({
  id: z.number(),
  queueId: z.number(),
  parentId: z.number().nullable(),
  title: z.string(),
  message: z.string(),
  option: z.string(),
});
export type TQueueOption = z.infer<typeof ZQueueOption>;

/** each weekday at most once, and a day never ends before it starts ("00:00" as the end is midnight) */
export const ZQueueSchedules = z
  .array(ZQueueWorkingHour)
  .max(7)
  .superRefine((rows, ctx) => {
    const seen = new Set<string>();
    rows.forEach((row, i) => {
      if (seen.has(row.weekdayEn)) ctx.addIssue({ code: 'custom', message: V.invalid, path: [i, 'weekdayEn'] });
      seen.add(row.weekdayEn);
      if (row.endTime !== '00:00' && row.endTime !== '' && row.endTime < row.startTime) {
        ctx.addIssue({ code: 'custom', message: V.invalid, path: [i, 'endTime'] });
      }
    });
  });

export const ZQueueCreateBody = ZQueueBody.extend({ schedules: ZQueueSchedules.default(DEFAULT_QUEUE_SCHEDULES) });

/** PUT /queue/:id: only the fields sent change */
export const ZQueueUpdateBody = z.object({
  name: zQueueName.optional(),
  color: ZQueueBody.shape.color.optional(),
  greetingMessage: z.string().max(4000, V.tooLong).optional(),
  outOfHoursMessage: z.string().max(4000, V.tooLong).optional(),
  orderQueue: zOrderQueue.optional(),
  integrationId: zIdOrNone.optional(),
  promptId: zIdOrNone.optional(),
  schedules: ZQueueSchedules.optional(),
  autoAssign: zBool.optional(),
  autoAssignMax: zAutoAssignMax.optional(),
  slaFirstResponseMinutes: zSlaFirstResponseMinutes.optional(),
  slaResolutionHours: zSlaResolutionHours.optional(),
});
export type TQueueUpdateBody = z.infer<typeof ZQueueUpdateBody>;

/** GET /queue-options: parentId -1 (or absent) is the top level */
export const ZQueueOptionQuery = z.object({
  queueId: zId,
  parentId: z
    .union([z.literal(-1), z.literal('-1'), zId])
    .optional()
    .transform((v) => (v === undefined || v === -1 || v === '-1' ? null : v)),
});

/** PUT /queue-options/:id: title, message and option; the queue and the parent stay */
export const ZQueueOptionUpdateBody = z.object({
  title: ZQueueOptionBody.shape.title.optional(),
  message: z.string().max(4000, V.tooLong).optional(),
  option: zOptionKey.pipe(z.string().min(1, V.required).max(10, V.tooLong)).optional(),
});
export type TQueueOptionUpdateBody = z.infer<typeof ZQueueOptionUpdateBody>;
