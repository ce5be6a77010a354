/**
 * Failed API tokens per client address (issue 20 item 5). After `max` unknown tokens from one IP within the
 * window, every token request from that IP is answered 429 before any lookup — the right token too, or a
 * guesser would still learn which guess was right — until the window that began with its first failure
 * ends. A known token counts nothing, so an integration sending hundreds of messages is never slowed.
 * Counters live in this process like the other limits (http/rate-limits.ts): behind a load balancer each
 * node counts its own share. Off with RATE_LIMITS=off.
 */
export const TOKEN_GUESSES = { max: 10, windowMs: 60_000 };

export type TTokenGuesses = ReturnType<typeof createTokenGuesses>;

export const createTokenGuesses = (opts = TOKEN_GUESSES, now: () => number = Date.now) => {
  const failures = new Map<string, { count: number; until: number }>();

  const current = (ip: string) => {
    const entry = failures.get(ip);
    if (entry && entry.until <= now()) {
      failures.delete(ip);
      return undefined;
    }

    return entry;
  };

  /** forgets the windows that ended, so the map holds only the addresses failing now */
  const prune = () => {
    const at = now();
    for (const [ip, entry] of failures) if (entry.until <= at) failures.delete(ip);
  };

  return {
    /** seconds this address must wait before trying a token again; undefined when it may try now */
    retryAfter: (ip: string) => {
      const entry = current(ip);
      if (!entry || entry.count < opts.max) return undefined;

      return Math.max(1, Math.ceil((entry.until - now()) / 1000));
    },
    /** one more unknown token from this address */
    failed: (ip: string) => {
      const entry = current(ip);
      if (entry) entry.count += 1;
      else {
        if (failures.size >= 10_000) prune();
        failures.set(ip, { count: 1, until: now() + opts.windowMs });
      }
    },
  };
};
