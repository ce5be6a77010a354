export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: TLanguage = 'pt';

export const PROFILES = ['admin', 'user'] as const;
export type TProfile = (typeof PROFILES)[number];

/** spelled so by the spec (spec 1 §3) */
export const ALL_TICKET_VALUES = ['enabled', 'desabled'] as const;
export type TAllTicket = (typeof ALL_TICKET_VALUES)[number];

export const PLAN_FLAGS = [
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const;
export type TPlanFlag = (typeof PLAN_FLAGS)[number];

export const RECURRENCES = ['MENSAL', 'BIMESTRAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'] as const;
export type TRecurrence = (typeof RECURRENCES)[number];
export const RECURRENCE_MONTHS: Record<TRecurrence, number> = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
};

export const TRIAL_DAYS = 3;
export const DUE_DATE_WARNING_DAYS = 5;
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

export const CONNECTION_STATUSES = ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT'] as const;
export type TConnectionStatus = (typeof CONNECTION_STATUSES)[number];
/** why a session last failed, shown beside its status (null when it did not): `unreachable`: its socket never reached WhatsApp's servers */
export const CONNECTION_ERRORS = ['unreachable'] as const;
export type TConnectionError = (typeof CONNECTION_ERRORS)[number];
export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export type TTicketStatus = (typeof TICKET_STATUSES)[number];

export const WEEKDAYS = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday' },
  { weekday: 'Sábado', weekdayEn: 'saturday' },
  { weekday: 'Domingo', weekdayEn: 'sunday' },
] as const;

/** Page sizes (reference behaviour §9). */
export const PAGE_SIZE = { tickets: 40, messages: 20, default: 20 } as const;

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_DAYS = 7;
export const RESET_CODE_TTL_MINUTES = 30;
export const RESET_CODE_MAX_ATTEMPTS = 5;
export const REFRESH_COOKIE = 'jrt';

export const APP_VERSION = '8.0.1';
