import { useState } from 'react';
import { useDebounce } from '../../hooks/useDebounce';

/** Delay before a typed search is sent (spec 2 §9). */
export const SEARCH_DEBOUNCE_MS = 500;

/** A search box's text and, 500 ms after the last key, the trimmed lower-case value to ask the API for. */
export const useSearch = (initial = '') => {
  const [search, setSearch] = useState(initial);
  const searchParam = useDebounce(search.trim().toLowerCase(), SEARCH_DEBOUNCE_MS);

  return { search, setSearch, searchParam };
};
