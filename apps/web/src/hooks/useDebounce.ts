import { useEffect, useState } from 'react';

/** The value, once it has stopped changing for `ms` milliseconds (spec 1 §9: 500 ms for searches). */
export const useDebounce = <T>(value: T, ms = 500): T => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);

    return () => clearTimeout(timer);
  }, [value, ms]);

  return debounced;
};
