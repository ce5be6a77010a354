/** Reads 'yyyy-MM-dd' (or an ISO date-time) as a local calendar day, without time-zone shifts. */
const toLocalDay = (value: string): Date | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) {
    const parsed = new Date(value);

    return Number.isNaN(parsed.getTime()) ? null : parsed;
  }

  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
};

const pad = (n: number) => String(n).padStart(2, '0');

/** dd/MM/yyyy (spec 1 §9); '' for an empty or invalid value. */
export const formatDate = (value: string | null | undefined): string => {
  const day = value ? toLocalDay(value) : null;

  return day ? `${pad(day.getDate())}/${pad(day.getMonth() + 1)}/${day.getFullYear()}` : '';
};

/** dd/MM/yyyy HH:mm in local time, as every screen writes a moment; '' for an empty or invalid value. */
export const formatDateTime = (value: string | null | undefined): string => {
  const at = value ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) return '';

  return `${pad(at.getDate())}/${pad(at.getMonth() + 1)}/${at.getFullYear()} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
};

/** Whole days from today to the given day (negative when past); null for an empty or invalid value. */
export const daysUntil = (value: string | null | undefined, now = new Date()): number | null => {
  const day = value ? toLocalDay(value) : null;
  if (!day) {
    return null;
  }
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  day.setHours(0, 0, 0, 0);

  return Math.round((day.getTime() - today.getTime()) / 86_400_000);
};
