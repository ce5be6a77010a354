import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { csatKey, reportKey, reportsApi, type TReportName, WEEKLY_MAIL_KEY } from './reportsApi';

/** the server keeps each answer until the company's next change; the screen asks again after this long */
const REPORT_STALE_MS = 30_000;

/** One report for the query's params (nothing asked while they are null: a window the server would refuse). */
export const useReport = <N extends TReportName>(name: N, params: Record<string, string> | null) =>
  useQuery({
    queryKey: reportKey(name, params ?? {}),
    queryFn: () => reportsApi.report(name, params ?? {}),
    enabled: params !== null,
    placeholderData: keepPreviousData,
    staleTime: REPORT_STALE_MS,
  });

/** The satisfaction report with one page of comments. */
export const useCsatReport = (params: Record<string, string> | null, pageNumber: number) =>
  useQuery({
    queryKey: csatKey(params ?? {}, pageNumber),
    queryFn: () => reportsApi.csat(params ?? {}, pageNumber),
    enabled: params !== null,
    placeholderData: keepPreviousData,
    staleTime: REPORT_STALE_MS,
  });

/** The caller's weekly summary e-mail: whether it is on and where it goes; the switch's change. */
export const useWeeklyMail = () => {
  const client = useQueryClient();
  const query = useQuery({ queryKey: WEEKLY_MAIL_KEY, queryFn: reportsApi.weeklyMail, retry: false });
  const change = useMutation({
    mutationFn: reportsApi.setWeeklyMail,
    onSuccess: (answer) => client.setQueryData(WEEKLY_MAIL_KEY, answer),
  });

  return { query, change };
};
