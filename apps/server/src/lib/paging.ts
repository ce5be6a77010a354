import { PAGE_SIZE } from '@zelo/shared';

export const pageWindow = (pageNumber: number, size: number = PAGE_SIZE.default) => ({
  limit: size,
  offset: (pageNumber - 1) * size,
});

export const pageAnswer = <T>(rows: T[], count: number, pageNumber: number, size: number = PAGE_SIZE.default) => ({
  rows,
  count,
  hasMore: count > pageNumber * size,
});

/** escapes % and _ for ILIKE patterns */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
