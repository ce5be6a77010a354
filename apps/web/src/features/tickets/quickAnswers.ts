import type { TQuickMessage } from '@zelo/shared';

export const QUICK_ANSWER_LABEL_MAX = 35;

/** Labels are cut at 35 characters plus an ellipsis (spec 1 §9). */
export const quickAnswerLabel = (text: string, max = QUICK_ANSWER_LABEL_MAX): string =>
  text.length > max ? `${text.slice(0, max)}…` : text;

/**
 * Suggestions while the text starts with '/': the quick messages whose shortcode starts with (or contains)
 * what follows the slash, shortcode matches first. Text not starting with '/' suggests nothing.
 */
export const filterQuickAnswers = (list: TQuickMessage[], text: string): TQuickMessage[] => {
  if (!text.startsWith('/') || text.includes('\n')) {
    return [];
  }
  const term = text.slice(1).trim().toLowerCase();
  const active = list.filter((q) => q.status !== false);
  if (!term) {
    return active;
  }
  const starts = active.filter((q) => q.shortcode.toLowerCase().startsWith(term));
  const contains = active.filter(
    (q) => !q.shortcode.toLowerCase().startsWith(term) && q.shortcode.toLowerCase().includes(term),
  );

  return [...starts, ...contains];
};
