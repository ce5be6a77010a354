import { z } from 'zod';

/**
 * Every company setting of spec 1 §9 (and the reference behaviour's appendix A) with its default
 * and the values it accepts. A setting that is not stored reads as its default.
 */
const enabledDisabled = z.enum(['enabled', 'disabled']);

export const SETTING_DEFINITIONS = {
  userRating: { schema: enabledDisabled, default: 'disabled' },
  /** after a rating the customer is asked for a comment; the next message within the wait is stored with it */
  userRatingComment: { schema: enabledDisabled, default: 'disabled' },
  /** minutes the comment is waited for (1–1440); later messages are a new conversation */
  userRatingCommentMinutes: { schema: z.string().regex(/^(?:[1-9]\d{0,2}|1[0-3]\d\d|14[0-3]\d|1440)$/), default: '10' },
  scheduleType: { schema: z.enum(['disabled', 'queue', 'company']), default: 'disabled' },
  /** enabled = ignore group messages */
  CheckMsgIsGroup: { schema: enabledDisabled, default: 'enabled' },
  /** enabled = accept calls; disabled = answer calls with an automatic message */
  call: { schema: enabledDisabled, default: 'enabled' },
  chatBotType: { schema: z.enum(['text', 'button', 'list']), default: 'text' },
  sendGreetingAccepted: { schema: enabledDisabled, default: 'disabled' },
  sendMsgTransfTicket: { schema: enabledDisabled, default: 'disabled' },
  sendGreetingMessageOneQueues: { schema: enabledDisabled, default: 'disabled' },
  /** payment provider token, kept as JSON text {"token": "..."} */
  asaas: { schema: z.string().max(2000), default: '' },
  /** side menu initially open */
  sideMenuOpen: { schema: enabledDisabled, default: 'enabled' },
  userCreation: { schema: enabledDisabled, default: 'enabled' },
  campaignsEnabled: { schema: z.enum(['true', 'false']), default: 'true' },
  /** minutes in which a closed ticket is reopened by a new customer message */
  reopenWindowMinutes: { schema: z.string().regex(/^\d{1,6}$/), default: '0' },
  timezone: { schema: z.string().min(1).max(64), default: 'America/Sao_Paulo' },
  /** service-level target (modules/sla): first response within these business minutes; '' or '0' = none */
  slaFirstResponseMinutes: { schema: z.string().regex(/^\d{0,5}$/), default: '' },
  /** service-level target: resolution within these business hours; '' or '0' = none */
  slaResolutionHours: { schema: z.string().regex(/^\d{0,4}$/), default: '' },
} as const;

export type TSettingKey = keyof typeof SETTING_DEFINITIONS;
export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as TSettingKey[];
/** keys whose value is a secret: masked for everybody but the admins who edit them */
export const SECRET_SETTING_KEYS: TSettingKey[] = ['asaas'];

/** own keys only: `constructor` or `__proto__` are no settings */
export const isSettingKey = (key: string): key is TSettingKey => Object.hasOwn(SETTING_DEFINITIONS, key);

export const ZSetting = z.object({ key: z.string(), value: z.string() });
export type TSetting = z.infer<typeof ZSetting>;
export const ZUpdateSettingRequest = z.object({ value: z.string().max(2000), key: z.string().optional() });
export type TUpdateSettingRequest = z.infer<typeof ZUpdateSettingRequest>;
