import type { TDurationStats, TLanguage, TReportGrouping } from '@zelo/shared';
import type { TClock } from './reportFilter';

/** How the reports write their figures: rates as percentages, means with one decimal, days as the app does. */

const localeOf = (lang: TLanguage) => (lang === 'pt' ? 'pt-BR' : lang);

/** a 0–1 rate as a percentage ("12.5%", "12,5%"); "—" when there was nothing to divide */
export const formatRate = (rate: number | null | undefined, lang: TLanguage) =>
  rate === null || rate === undefined
    ? '—'
    : new Intl.NumberFormat(localeOf(lang), { style: 'percent', maximumFractionDigits: 1 }).format(rate);

/** a count or a mean, at most one decimal; "—" for none */
export const formatNumber = (value: number | null | undefined, lang: TLanguage) =>
  value === null || value === undefined
    ? '—'
    : new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits: 1 }).format(value);

/** the median or p90 of a duration on the chosen clock (seconds; null when nothing was measured) */
export const durationOf = (stats: TDurationStats, which: 'median' | 'p90', clock: TClock) =>
  clock === 'business' ? (which === 'median' ? stats.medianBusiness : stats.p90Business) : stats[which];

/** a bucket's first day (yyyy-MM-dd) on a chart's axis: dd/MM, or MM/yyyy for months */
export const formatBucket = (bucket: string, groupBy: TReportGrouping) => {
  const [year, month, day] = bucket.split('-');

  return groupBy === 'month' ? `${month}/${year}` : `${day}/${month}`;
};
