/** spec 1 §9: a duration in minutes as 'HHh MMm' (hours past 24 keep counting: 50,400 min = '840h 00m') */
export const formatMinutes = (minutes: number) => {
  const total = Math.max(0, Math.round(Number.isFinite(minutes) ? minutes : 0));
  const hours = Math.floor(total / 60);

  return `${String(hours).padStart(2, '0')}h ${String(total % 60).padStart(2, '0')}m`;
};

/** yyyy-MM-dd of a local date */
export const isoDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

export type TDashboardFilter = { kind: 'date'; from: string; to: string } | { kind: 'period'; days: number };

/** the query of GET /dashboard for a filter; null when nothing is set ('select filter') */
export const dashboardParams = (filter: TDashboardFilter): Record<string, string> | null => {
  if (filter.kind === 'period') return filter.days > 0 ? { days: String(filter.days) } : null;
  const params: Record<string, string> = {};
  if (filter.from) params.date_from = filter.from;
  if (filter.to) params.date_to = filter.to;

  return Object.keys(params).length ? params : null;
};
