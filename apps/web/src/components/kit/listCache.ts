import type { InfiniteData } from '@tanstack/react-query';

/**
 * The realtime list reducer of spec 3 §4 over an infinite query's pages: a record already listed is merged
 * in place (by id), a new one is put first (when it belongs in that list), a removed one is taken out.
 * Pages are `{[itemsKey]: T[], hasMore, count?}` as every paged list of the API answers.
 */
export type TListPage<T> = { hasMore: boolean; count?: number } & Record<string, T[] | unknown>;
export type TListData<T> = InfiniteData<TListPage<T>>;
export type TRecord = { id: number | string };

const itemsOf = <T>(page: TListPage<T>, itemsKey: string) => (page[itemsKey] as T[] | undefined) ?? [];

/** Every record of the loaded pages, in order. */
export const flattenList = <T>(data: TListData<T> | undefined, itemsKey: string): T[] =>
  data?.pages.flatMap((page) => itemsOf(page, itemsKey)) ?? [];

/**
 * Merges `record` where it is listed; a record not listed yet goes to the top of the first page when
 * `belongs(record)` (the list's search or filter) says it should be there.
 */
export const upsertInList = <T extends TRecord>(
  data: TListData<T> | undefined,
  itemsKey: string,
  record: T,
  belongs: (record: T) => boolean = () => true,
): TListData<T> | undefined => {
  if (!data || data.pages.length === 0) {
    return data;
  }
  const isListed = data.pages.some((page) => itemsOf<T>(page, itemsKey).some((r) => r.id === record.id));
  if (isListed) {
    return {
      ...data,
      pages: data.pages.map((page) => {
        const items = itemsOf<T>(page, itemsKey);

        return items.some((r) => r.id === record.id)
          ? { ...page, [itemsKey]: items.map((r) => (r.id === record.id ? { ...r, ...record } : r)) }
          : page;
      }),
    };
  }
  if (!belongs(record)) {
    return data;
  }

  return {
    ...data,
    pages: data.pages.map((page, index) =>
      index === 0
        ? {
            ...page,
            [itemsKey]: [record, ...itemsOf<T>(page, itemsKey)],
            ...(typeof page.count === 'number' ? { count: page.count + 1 } : {}),
          }
        : page,
    ),
  };
};

/** Takes the record with this id out of every page. */
export const removeFromList = <T extends TRecord>(
  data: TListData<T> | undefined,
  itemsKey: string,
  id: TRecord['id'],
): TListData<T> | undefined => {
  if (!data) {
    return data;
  }
  let changed = false;
  const pages = data.pages.map((page) => {
    const items = itemsOf<T>(page, itemsKey);
    const kept = items.filter((r) => r.id !== id);
    if (kept.length === items.length) {
      return page;
    }
    changed = true;

    return {
      ...page,
      [itemsKey]: kept,
      ...(typeof page.count === 'number' ? { count: Math.max(0, page.count - 1) } : {}),
    };
  });

  return changed ? { ...data, pages } : data;
};

/** Whether `text` contains the search (ignoring case and accents); an empty search matches everything. */
export const matchesSearch = (search: string, ...texts: (string | null | undefined)[]) => {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const wanted = fold(search.trim());

  return !wanted || texts.some((text) => text && fold(text).includes(wanted));
};
