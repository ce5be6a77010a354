import type {
  TLanguage,
  TReportAgents,
  TReportCsat,
  TReportExport,
  TReportFormat,
  TReportHeatmap,
  TReportQueues,
  TReportSeries,
  TReportSummary,
  TWeeklyMail,
} from '@zelo/shared';
import { api } from '../../api/http';
import { saveFile } from '../../utils/saveFile';

/** The reports' API (`/api/reports/*`, admins): one GET per report, the exports and the weekly e-mail opt-in. */

export type TReportAnswers = {
  summary: TReportSummary;
  series: TReportSeries;
  heatmap: TReportHeatmap;
  agents: TReportAgents;
  queues: TReportQueues;
};
export type TReportName = keyof TReportAnswers;

export const REPORTS_KEY = ['reports'] as const;
export const reportKey = (name: TReportName, params: Record<string, string>) => [...REPORTS_KEY, name, params] as const;
export const csatKey = (params: Record<string, string>, pageNumber: number) =>
  [...REPORTS_KEY, 'csat', params, pageNumber] as const;
export const WEEKLY_MAIL_KEY = [...REPORTS_KEY, 'weekly-mail'] as const;

export const reportsApi = {
  report: <N extends TReportName>(name: N, params: Record<string, string>) =>
    api.get<TReportAnswers[N]>(`/reports/${name}`, { params }),
  csat: (params: Record<string, string>, pageNumber: number) =>
    api.get<TReportCsat>('/reports/csat', { params: { ...params, pageNumber } }),
  weeklyMail: () => api.get<TWeeklyMail>('/reports/weekly-mail'),
  setWeeklyMail: (enabled: boolean) => api.put<TWeeklyMail>('/reports/weekly-mail', { enabled }),
  /** `GET /api/reports/export` (ZReportExportQuery): the report's file with the screen's filters and language */
  exportFile: (report: TReportExport, format: TReportFormat, lang: TLanguage, params: Record<string, string>) =>
    api.download('/reports/export', { params: { ...params, report, format, lang } }),
};

/** Downloads an export: the name the server gives it, else `report-<report>-<from>-<to>.<format>`. */
export const downloadReport = async (
  report: TReportExport,
  format: TReportFormat,
  lang: TLanguage,
  params: Record<string, string>,
  save: (blob: Blob, fileName: string) => void = saveFile,
) => {
  const file = await reportsApi.exportFile(report, format, lang, params);
  const days = [params.from, params.to].filter(Boolean).join('-');
  save(file.blob, file.fileName ?? `report-${report}${days ? `-${days}` : ''}.${format}`);
};
