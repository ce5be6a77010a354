import { type UIEvent, useCallback } from 'react';

/** Distance from the bottom, in px, at which the next page loads (spec 1 §9). */
export const INFINITE_SCROLL_THRESHOLD = 100;

export const isNearBottom = (el: HTMLElement, threshold = INFINITE_SCROLL_THRESHOLD) =>
  el.scrollHeight - (el.scrollTop + el.clientHeight) < threshold;

type Options = { hasMore: boolean; loading?: boolean };

/**
 * Returns an `onScroll` handler for the scroll container: it calls `onLoadMore` when the container is within
 * 100 px of its bottom, there is more to load and nothing is loading.
 *
 *   const onScroll = useInfiniteScroll(() => setPage((p) => p + 1), { hasMore, loading });
 *   <TableContainer onScroll={onScroll} sx={{ maxHeight: ..., overflowY: 'auto' }}>
 */
export const useInfiniteScroll = (onLoadMore: () => void, { hasMore, loading = false }: Options) =>
  useCallback(
    (event: UIEvent<HTMLElement>) => {
      if (!hasMore || loading) {
        return;
      }
      if (isNearBottom(event.currentTarget)) {
        onLoadMore();
      }
    },
    [onLoadMore, hasMore, loading],
  );
