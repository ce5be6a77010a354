import { useSyncExternalStore } from 'react';

/** One clock for every service-level chip on screen: a single timer, started while any chip is mounted. */
export const SLA_TICK_MS = 5_000;

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) {
        l();
      }
    }, SLA_TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
};

export const useNow = () =>
  useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
