import { z } from 'zod';
import { V, zId, zIdOrNone, zMoment, zMomentText, zNone, zNumeric, zPageNumber } from './common.js';

/*
 * Campaigns, campaign settings and the campaign report (spec 2 §3/§4/§5/§7, issue 12 items 4–6).
 * The API contract between the server (`modules/campaigns`) and the web screens.
 */

export const CAMPAIGN_STATUSES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type TCampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** per-recipient state of a dispatch */
export const CAMPAIGN_RECIPIENT_STATES = ['queued', 'sent', 'failed'] as const;
export type TCampaignRecipientState = (typeof CAMPAIGN_RECIPIENT_STATES)[number];

/** spec 2 §9: up to five message variants */
export const CAMPAIGN_MESSAGE_FIELDS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
export const CAMPAIGN_MESSAGE_MAX = 4000;
/** spec 2 §9: messageInterval options (seconds), default 20 */
export const CAMPAIGN_MESSAGE_INTERVALS = [0, 5, 10, 15, 20] as const;
/** spec 2 §9: longerIntervalAfter (messages; 0 = never) and greaterInterval (seconds) options */
export const CAMPAIGN_LONGER_INTERVALS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
export const CAMPAIGN_SETTINGS_DEFAULTS = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [] as { key: string; value: string }[],
};
/** spec 2 §4: a PROGRAMADA campaign stays editable while its start is more than this far ahead */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60 * 1000;
/** rows per page in the list and in the report's recipients */
export const CAMPAIGN_PAGE_SIZE = 20;
/** the ancestor's dialog sends this label for "no tag" */
export const CAMPAIGN_NO_TAG = 'Nenhuma';

/**
 * spec 2 §4: editable only if INATIVA, or PROGRAMADA with the start more than one hour ahead. A CANCELADA campaign
 * is not editable either, but its dialog still saves (name, messages) and restarts — see `canSave`.
 */
export const isCampaignEditable = (
  c: { status: string; scheduledAt: string | Date | null },
  now: number = Date.now(),
): boolean => {
  if (c.status === 'INATIVA') return true;
  if (c.status !== 'PROGRAMADA' || !c.scheduledAt) return false;
  return new Date(c.scheduledAt).getTime() - now > CAMPAIGN_EDIT_LEAD_MS;
};

const zMessage = z
  .union([z.string(), z.null()], { error: V.invalid })
  .transform((v) => v ?? '')
  .pipe(z.string().max(CAMPAIGN_MESSAGE_MAX, V.tooLong));

/**
 * A start time: a moment (common.ts: an ISO instant, or the ancestor's zone-less `YYYY-MM-DD HH:mm:ss`, which the
 * server reads in the company's time zone); `null` / `""` / `false` = none.
 */
export const zCampaignDate = z.union([zNone, zMoment().pipe(zMomentText)], { error: V.invalid });

/** the tag link: an id, or none (`null`, `""`, `false`, or the ancestor's label "Nenhuma") */
const zTagLink = z.union([zIdOrNone, z.literal(CAMPAIGN_NO_TAG).transform(() => null)], { error: V.invalid });

const campaignFields = {
  name: z.string({ error: V.required }).trim().min(1, V.required).min(2, V.tooShort).max(50, V.tooLong),
  message1: zMessage,
  message2: zMessage,
  message3: zMessage,
  message4: zMessage,
  message5: zMessage,
  /** when set: PROGRAMADA until then (or started at once when not in the future); `null` = INATIVA */
  scheduledAt: zCampaignDate,
  whatsappId: zIdOrNone,
  contactListId: zIdOrNone,
  /** the ancestor's form field for the audience tag (`tagId` is accepted too; `tagListId` wins) */
  tagListId: zTagLink,
  tagId: zTagLink,
  fileListId: zIdOrNone,
};

/**
 * POST /campaigns. Legacy-lenient: the ancestor's CampaignModal also sends `status`, `companyId` and (on edit) the
 * whole record read back (`id`, `mediaPath`, nested `whatsapp`, …); those are ignored — status is the server's,
 * the company is the caller's.
 */
export const ZCampaignBody = z.object({
  name: campaignFields.name,
  message1: campaignFields.message1.default(''),
  message2: campaignFields.message2.default(''),
  message3: campaignFields.message3.default(''),
  message4: campaignFields.message4.default(''),
  message5: campaignFields.message5.default(''),
  scheduledAt: campaignFields.scheduledAt.default(null),
  whatsappId: campaignFields.whatsappId.default(null),
  contactListId: campaignFields.contactListId.default(null),
  tagListId: campaignFields.tagListId.optional(),
  tagId: campaignFields.tagId.optional(),
  fileListId: campaignFields.fileListId.default(null),
});
export type TCampaignBody = z.infer<typeof ZCampaignBody>;

/** PUT /campaigns/:id: only the fields sent change (same leniency as create) */
export const ZCampaignUpdateBody = z.object({
  name: campaignFields.name.optional(),
  message1: campaignFields.message1.optional(),
  message2: campaignFields.message2.optional(),
  message3: campaignFields.message3.optional(),
  message4: campaignFields.message4.optional(),
  message5: campaignFields.message5.optional(),
  scheduledAt: campaignFields.scheduledAt.optional(),
  whatsappId: campaignFields.whatsappId.optional(),
  contactListId: campaignFields.contactListId.optional(),
  tagListId: campaignFields.tagListId.optional(),
  tagId: campaignFields.tagId.optional(),
  fileListId: campaignFields.fileListId.optional(),
});
export type TCampaignUpdateBody = z.infer<typeof ZCampaignUpdateBody>;

const zRef = z.object({ id: z.number(), name: z.string() }).nullable();

/** the campaign as GET /campaigns, GET /campaigns/:id and every write answer it */
export const ZCampaign = z.object({
  id: z.number(),
  name: z.string(),
  message1: z.string(),
  message2: z.string(),
  message3: z.string(),
  message4: z.string(),
  message5: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  /** ISO instants */
  scheduledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  whatsappId: z.number().nullable(),
  contactListId: z.number().nullable(),
  tagId: z.number().nullable(),
  /** the same as tagId (the ancestor form's field name) */
  tagListId: z.number().nullable(),
  fileListId: z.number().nullable(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  companyId: z.number(),
  whatsapp: zRef,
  contactList: zRef,
  tag: zRef,
  fileList: zRef,
  /** spec 2 §4 evaluated by the server at answer time (the dialog is read-only when false) */
  editable: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TCampaign = z.infer<typeof ZCampaign>;

export const ZCampaignListQuery = z.object({
  searchParam: z.string().trim().max(200).optional().default(''),
  pageNumber: zPageNumber,
});
export type TCampaignListQuery = z.infer<typeof ZCampaignListQuery>;

export const ZCampaignList = z.object({
  records: z.array(ZCampaign),
  count: z.number(),
  hasMore: z.boolean(),
});
export type TCampaignList = z.infer<typeof ZCampaignList>;

/* ---------- campaign settings: GET / POST /campaign-settings ---------- */

const zOption = <T extends readonly number[]>(options: T) =>
  zNumeric(
    z
      .number()
      .int(V.invalid)
      .refine((n) => (options as readonly number[]).includes(n), V.invalid),
  );

const zVariable = z.object({
  key: z
    .string({ error: V.required })
    .trim()
    .min(1, V.required)
    .max(50, V.tooLong)
    .regex(/^[^{}\s]+$/, V.invalid),
  value: z
    .union([z.string(), z.number(), z.null()], { error: V.invalid })
    .transform((v) => (v == null ? '' : String(v)))
    .pipe(z.string().max(1000, V.tooLong)),
});

export const ZCampaignSettings = z.object({
  messageInterval: z.number(),
  longerIntervalAfter: z.number(),
  greaterInterval: z.number(),
  variables: z.array(z.object({ key: z.string(), value: z.string() })),
});
export type TCampaignSettings = z.infer<typeof ZCampaignSettings>;

/** the settings themselves; fields left out keep their stored value. No two variables may share a key. */
export const ZCampaignSettingsInput = z
  .object({
    messageInterval: zOption(CAMPAIGN_MESSAGE_INTERVALS).optional(),
    /** messages between longer pauses; 0 = never */
    longerIntervalAfter: zOption(CAMPAIGN_LONGER_INTERVALS).optional(),
    greaterInterval: zOption(CAMPAIGN_LONGER_INTERVALS).optional(),
    variables: z.array(zVariable).max(100, V.tooLong).optional(),
  })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.variables?.forEach((v, i) => {
      if (seen.has(v.key)) ctx.addIssue({ code: 'custom', message: V.invalid, path: ['variables', i, 'key'] });
      seen.add(v.key);
    });
  });
export type TCampaignSettingsInput = z.infer<typeof ZCampaignSettingsInput>;

/**
 * The settings as the ancestor stores and answers them: one row a key, the value as JSON text
 * (`{key: 'messageInterval', value: '20'}`, `{key: 'variables', value: '[{"key":"loja","value":"Centro"}]'}`).
 * Its CampaignsConfig page reads `JSON.parse(item.value)` of each row; GET and POST answer these rows.
 */
export const ZCampaignSettingRow = z.object({ key: z.string(), value: z.string() });
export type TCampaignSettingRow = z.infer<typeof ZCampaignSettingRow>;

export const CAMPAIGN_SETTING_KEYS = [
  'messageInterval',
  'longerIntervalAfter',
  'greaterInterval',
  'variables',
] as const;

export const campaignSettingsToRows = (settings: TCampaignSettings): TCampaignSettingRow[] =>
  CAMPAIGN_SETTING_KEYS.map((key) => ({ key, value: JSON.stringify(settings[key]) }));

/** rows (or anything else) back to the settings' fields; a value that is not JSON is taken as text */
export const campaignSettingsFromRows = (rows: unknown): Record<string, unknown> => {
  if (!Array.isArray(rows)) return rows && typeof rows === 'object' ? (rows as Record<string, unknown>) : {};
  const fields: Record<string, unknown> = {};
  for (const row of rows) {
    if (!row || typeof row !== 'object' || typeof (row as { key?: unknown }).key !== 'string') continue;
    const { key, value } = row as { key: string; value: unknown };
    try {
      fields[key] = typeof value === 'string' ? JSON.parse(value) : value;
    } catch {
      fields[key] = value;
    }
  }

  return fields;
};

/**
 * POST /campaign-settings body: the ancestor's `{settings: {…}}` (what CampaignsConfig sends), the settings object
 * itself, or its rows `[{key, value}]` with JSON values. Answers the rows, as GET does.
 */
export const ZCampaignSettingsBody = z.preprocess((v) => {
  const inner =
    v && typeof v === 'object' && !Array.isArray(v) && 'settings' in v ? (v as { settings: unknown }).settings : v;

  return Array.isArray(inner) ? campaignSettingsFromRows(inner) : inner;
}, ZCampaignSettingsInput);
export type TCampaignSettingsBody = z.infer<typeof ZCampaignSettingsBody>;

/* ---------- report: GET /campaigns/:id/report ---------- */

export const ZCampaignReportQuery = z.object({
  /** the recipients' page (CAMPAIGN_PAGE_SIZE rows) */
  pageNumber: zPageNumber,
  /** filter the recipients by number or name */
  searchParam: z.string().trim().max(200).optional().default(''),
  state: z.enum(CAMPAIGN_RECIPIENT_STATES, { error: V.invalid }).optional(),
});
export type TCampaignReportQuery = z.infer<typeof ZCampaignReportQuery>;

export const ZCampaignCounts = z.object({
  /** the audience: recipients planned (or, before the start, the deduplicated valid numbers it would reach) */
  valid: z.number(),
  queued: z.number(),
  sent: z.number(),
  /** sent and acknowledged by the phone (ack ≥ 3) */
  delivered: z.number(),
  /** read (ack 4) */
  read: z.number(),
  failed: z.number(),
  /** recipients whose send may have gone out twice (a crash mid-send on a transport without message ids) */
  atLeastOnce: z.number(),
});
export type TCampaignCounts = z.infer<typeof ZCampaignCounts>;

export const ZCampaignRecipient = z.object({
  id: z.number(),
  number: z.string(),
  name: z.string(),
  state: z.enum(CAMPAIGN_RECIPIENT_STATES),
  /** planned send time (ISO) */
  scheduledFor: z.string().nullable(),
  /** when it was sent (state sent) or when it failed (state failed); ISO */
  time: z.string().nullable(),
  /** message acknowledgement (0..4) of the sent message; null before sending */
  ack: z.number().nullable(),
  error: z.string().nullable(),
  atLeastOnce: z.boolean(),
});
export type TCampaignRecipient = z.infer<typeof ZCampaignRecipient>;

export const ZCampaignReport = z.object({
  campaign: ZCampaign,
  counts: ZCampaignCounts,
  recipients: z.object({
    records: z.array(ZCampaignRecipient),
    count: z.number(),
    hasMore: z.boolean(),
  }),
});
export type TCampaignReport = z.infer<typeof ZCampaignReport>;

/* ---------- realtime: company-{id}-campaign (events.campaign) ---------- */

export type TCampaignEvent =
  | { action: 'create' | 'update'; record: TCampaign }
  | { action: 'delete'; id: number }
  /** a recipient changed state: the campaign's new counts (the report refetches its page when it wants rows) */
  | { action: 'progress'; campaignId: number; status: TCampaignStatus; counts: TCampaignCounts };

/** company-{id}-campaignSettings */
export type TCampaignSettingsEvent = { action: 'update'; record: TCampaignSettings };

export const ZCampaignIdParams = z.object({ id: zId });
