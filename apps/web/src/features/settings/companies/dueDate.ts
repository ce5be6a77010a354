const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})/;
const DAY_MS = 86_400_000;

const parseDateOnly = (value: string | null | undefined): [number, number, number] | null => {
  const match = value ? DATE_ONLY.exec(value) : null;
  if (!match) {
    return null;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];

  return Number.isNaN(Date.UTC(year, month - 1, day)) ? null : [year, month, day];
};

const pad = (n: number) => String(n).padStart(2, '0');

/** Today as yyyy-MM-dd in the browser's calendar. */
export const todayDateOnly = (now = new Date()) =>
  `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

/** Whole days from today to the date (negative when past); null for an empty or invalid date. */
export const daysToDueDate = (dueDate: string | null | undefined, now = new Date()): number | null => {
  const parts = parseDateOnly(dueDate);
  if (!parts) {
    return null;
  }
  const due = Date.UTC(parts[0], parts[1] - 1, parts[2]);
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());

  return Math.round((due - today) / DAY_MS);
};

export type TDueTone = 'yellow' | 'orange' | 'red' | null;

/** Row colour by days to the due date (spec 1 §4): yellow at 5, orange from -3 to 4, red at -4 or less. */
export const dueDateTone = (days: number | null): TDueTone => {
  if (days === null) {
    return null;
  }
  if (days === 5) {
    return 'yellow';
  }
  if (days >= -3 && days <= 4) {
    return 'orange';
  }
  if (days <= -4) {
    return 'red';
  }

  return null;
};

/** Translucent tints keep the text readable on light and dark paper. */
export const DUE_TONE_BACKGROUND: Record<Exclude<TDueTone, null>, string> = {
  yellow: 'rgba(255, 235, 59, 0.28)',
  orange: 'rgba(255, 152, 0, 0.28)',
  red: 'rgba(244, 67, 54, 0.28)',
};

/**
 * yyyy-MM-dd moved forward by whole months; the day is clamped to the target month's length
 * (31 January + 1 month = 28 or 29 February). An empty or invalid date starts from today.
 */
export const addMonthsToDate = (dueDate: string | null | undefined, months: number, now = new Date()): string => {
  const [year, month, day] = parseDateOnly(dueDate) ?? (parseDateOnly(todayDateOnly(now)) as [number, number, number]);
  const monthIndex = month - 1 + months;
  const targetYear = year + Math.floor(monthIndex / 12);
  const targetMonth = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();

  return `${targetYear}-${pad(targetMonth + 1)}-${pad(Math.min(day, lastDay))}`;
};

/** dd/MM/yyyy (spec 1 §9) for a date-only or ISO value; '' when empty. */
export const formatDateOnly = (value: string | null | undefined): string => {
  const parts = parseDateOnly(value);

  return parts ? `${pad(parts[2])}/${pad(parts[1])}/${parts[0]}` : '';
};
