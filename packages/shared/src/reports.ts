import { z } from 'zod';
import { V, zBool, zPageNumber } from './common.js';
import { zDashboardDay } from './dashboard.js';
import { zIdList } from './tickets.js';

/**
 * The reports (`/reports`, admins): attendance figures of a window of the company's days, filtered by queue,
 * agent, connection and tag, grouped by day, week or month. Every duration is in seconds, both on the wall
 * clock and in business time (the working hours the settings give, ARCHITECTURE "Attendance metrics").
 */

export const REPORT_GROUPINGS = ['day', 'week', 'month'] as const;
export type TReportGrouping = (typeof REPORT_GROUPINGS)[number];
/** the longest window a report covers (days) */
export const REPORT_MAX_DAYS = 366;
/** the window when none is asked for: the last 30 days up to today */
export const REPORT_DEFAULT_DAYS = 30;
/** comments per page of the satisfaction report */
export const REPORT_COMMENTS_PAGE = 20;

const dayCount = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 864e5;

const reportFields = {
  /** first and last day (yyyy-MM-dd, company zone), both included; today and 29 days before when left out */
  from: zDashboardDay.optional(),
  to: zDashboardDay.optional(),
  queueIds: zIdList.optional(),
  userIds: zIdList.optional(),
  whatsappIds: zIdList.optional(),
  tagIds: zIdList.optional(),
  groupBy: z.enum(REPORT_GROUPINGS, { error: V.invalid }).optional(),
};

const checkRange = <T extends { from?: string; to?: string }>(schema: z.ZodType<T>) =>
  schema
    .refine((q) => !q.from || !q.to || q.from <= q.to, { message: V.invalid, path: ['from'] })
    .refine((q) => !q.from || !q.to || dayCount(q.from, q.to) < REPORT_MAX_DAYS, {
      message: V.tooLong,
      path: ['from'],
    });

export const ZReportQuery = checkRange(z.object(reportFields));
export type TReportQuery = z.infer<typeof ZReportQuery>;

export const ZReportCsatQuery = checkRange(z.object({ ...reportFields, pageNumber: zPageNumber }));
export type TReportCsatQuery = z.infer<typeof ZReportCsatQuery>;

/** what an export holds: one of the screen's tables or charts, or one row per conversation */
export const REPORT_EXPORTS = ['summary', 'series', 'heatmap', 'agents', 'queues', 'csat', 'tickets'] as const;
export type TReportExport = (typeof REPORT_EXPORTS)[number];
export const REPORT_FORMATS = ['csv', 'xlsx'] as const;
export type TReportFormat = (typeof REPORT_FORMATS)[number];

export const ZReportExportQuery = checkRange(
  z.object({
    ...reportFields,
    report: z.enum(REPORT_EXPORTS, { error: V.invalid }),
    format: z.enum(REPORT_FORMATS, { error: V.invalid }).optional(),
    /** the language of the column names (the caller's when left out) */
    lang: z.enum(['pt', 'en', 'es'], { error: V.invalid }).optional(),
  }),
);
export type TReportExportQuery = z.infer<typeof ZReportExportQuery>;

/** median and 90th percentile of a duration, wall clock and business time, over `count` conversations */
export type TDurationStats = {
  count: number;
  median: number | null;
  p90: number | null;
  medianBusiness: number | null;
  p90Business: number | null;
};

export type TCsat = {
  /** ratings given in the window */
  rated: number;
  /** ratings of 2 or 3 */
  satisfied: number;
  /** satisfied ÷ rated, 0–1; null without ratings */
  score: number | null;
  distribution: { 1: number; 2: number; 3: number };
};

/**
 * Service-level outcome of the conversations started in the window (modules/sla): `decided` had a target and
 * its outcome is known (met, or missed at the breach), `met` of them within target; share = met ÷ decided
 */
export type TSlaShare = { decided: number; met: number; share: number | null };
export type TReportSla = { firstResponse: TSlaShare; resolution: TSlaShare };

export type TReportWindow = { from: string; to: string; timeZone: string; groupBy: TReportGrouping };

export type TReportSummary = {
  window: TReportWindow;
  /** conversations (attendance cycles) started in the window: new tickets and reopenings */
  opened: number;
  /** conversations resolved in the window (closed, or the rating asked) */
  resolved: number;
  /** first responses given in the window: from when the customer waited for a person to the first agent reply */
  firstResponse: TDurationStats;
  /** conversations resolved in the window: from their start to their resolution */
  resolution: TDurationStats;
  /** bot, flow or AI time before a person, of the conversations resolved in the window where a bot spoke */
  botTime: TDurationStats;
  /** agent messages per resolved conversation (mean) */
  repliesPerConversation: number | null;
  /** resolved in the window and reopened since */
  reopened: number;
  reopenRate: number | null;
  /** resolved without any person, after a bot spoke */
  botResolved: number;
  botResolvedShare: number | null;
  /** conversations not resolved at the window's end */
  backlog: number;
  csat: TCsat;
  /** the conversations opened in the window within their service-level targets */
  sla: TReportSla;
};

export type TReportPoint = {
  /** the bucket's first day, yyyy-MM-dd (a week starts on Monday) */
  bucket: string;
  opened: number;
  resolved: number;
  /** open at the bucket's end */
  backlog: number;
  firstResponse: TDurationStats;
  resolution: TDurationStats;
};
export type TReportSeries = { window: TReportWindow; points: TReportPoint[] };

/** conversations started per weekday (0 Monday … 6 Sunday) and hour (0–23), company zone */
export type TReportHeatmap = { window: TReportWindow; cells: number[][]; max: number };

export type TReportRowFigures = {
  opened: number;
  resolved: number;
  firstResponse: TDurationStats;
  resolution: TDurationStats;
  repliesPerConversation: number | null;
  reopened: number;
  reopenRate: number | null;
  botResolved: number;
  botResolvedShare: number | null;
  csat: TCsat;
  sla: TReportSla;
};
/** per agent: first responses by who gave them, resolutions and ratings by the conversation's agent */
export type TReportAgentRow = TReportRowFigures & { userId: number | null; name: string };
/** per queue: every figure by the conversation's queue */
export type TReportQueueRow = TReportRowFigures & { queueId: number | null; name: string; color: string | null };
export type TReportAgents = { window: TReportWindow; rows: TReportAgentRow[] };
export type TReportQueues = { window: TReportWindow; rows: TReportQueueRow[] };

export type TReportComment = {
  ratingId: number;
  ticketId: number;
  rate: number;
  comment: string;
  createdAt: string;
  contactName: string;
  userName: string | null;
};
export type TReportCsat = TCsat & {
  window: TReportWindow;
  comments: TReportComment[];
  /** comments in the window */
  count: number;
  hasMore: boolean;
};

/** `PUT /api/reports/weekly-mail`: the caller's opt-in to the weekly summary by e-mail */
export const ZWeeklyMailBody = z.object({ enabled: zBool });
export type TWeeklyMailBody = z.infer<typeof ZWeeklyMailBody>;
export type TWeeklyMail = { enabled: boolean; email: string };
