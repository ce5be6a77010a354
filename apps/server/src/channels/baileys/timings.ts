/** How long a Baileys session waits, and how often it tries again (tests and the e2e server shorten them) */

export type TBaileysTimings = {
  /** unscanned QR codes (or refreshes while a pairing code waits) before TIMEOUT */
  maxQrs: number;
  /** reconnections in a row before DISCONNECTED */
  maxRetries: number;
  /** wait before reconnection n (1-based) */
  backoffMs: (attempt: number) => number;
  connectTimeoutMs: number;
  qrTimeoutMs: number;
  /** a pairing-code request waits this long for the socket to reach WhatsApp (its first QR) */
  pairingWaitMs: number;
};

export const DEFAULT_BAILEYS_TIMINGS: TBaileysTimings = {
  maxQrs: 5,
  maxRetries: 5,
  backoffMs: (attempt) => Math.min(60_000, 1000 * 2 ** (attempt - 1)),
  connectTimeoutMs: 20_000,
  qrTimeoutMs: 60_000,
  pairingWaitMs: 20_000,
};

/** timings from the environment: BAILEYS_MAX_RETRIES, BAILEYS_BACKOFF_MS (the first wait, doubled each time) */
export const baileysTimingsFromEnv = (env: NodeJS.ProcessEnv = process.env): Partial<TBaileysTimings> => {
  const num = (name: string, min: number) => {
    const value = Number(env[name]);
    return env[name] !== undefined && env[name] !== '' && Number.isFinite(value) && value >= min ? value : undefined;
  };
  const retries = num('BAILEYS_MAX_RETRIES', 0);
  const first = num('BAILEYS_BACKOFF_MS', 1);

  return {
    ...(retries !== undefined ? { maxRetries: retries } : {}),
    ...(first !== undefined ? { backoffMs: (attempt: number) => Math.min(60_000, first * 2 ** (attempt - 1)) } : {}),
  };
};
