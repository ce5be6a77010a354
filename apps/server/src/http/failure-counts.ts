/**
 * Counters of failed attempts (a wrong password), in this process: a fixed window per key that starts at the
 * first failure. Unlike `@fastify/rate-limit`, reading a count does not add to it, so a limit can refuse on the
 * failures alone and let the right password through (http/rate-limit-hook.ts). Expired windows are swept as
 * failures arrive, so the map holds only the keys that failed within their window.
 */
export type TFailureCounts = ReturnType<typeof createFailureCounts>;

export const createFailureCounts = (now: () => number = Date.now) => {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweepAt = 0;
  const live = (key: string) => {
    const window = windows.get(key);

    return window && window.resetAt > now() ? window : undefined;
  };
  const sweep = () => {
    const at = now();
    if (at < sweepAt) return;
    sweepAt = at + 60_000;
    for (const [key, window] of windows) if (window.resetAt <= at) windows.delete(key);
  };

  return {
    count: (key: string) => live(key)?.count ?? 0,
    /** whole seconds until the key's window ends (at least 1) */
    retryAfter: (key: string) => Math.max(1, Math.ceil(((live(key)?.resetAt ?? now()) - now()) / 1000)),
    add: (key: string, windowMs: number) => {
      sweep();
      const window = live(key);
      if (window) window.count += 1;
      else windows.set(key, { count: 1, resetAt: now() + windowMs });
    },
  };
};
