import type { TAppContext } from '../../lib/context';

/**
 * A channel may report on a message (an ack, a late failure, an edit) before the send that made it has recorded
 * the channel's id: a batch records its ids together once every send of the batch has answered, and a fast
 * transport acks within milliseconds. Such an update is tried again after each of these delays, then dropped.
 */
export const UNSTORED_RETRY_MS = [250, 1_000, 3_000, 10_000, 30_000] as const;

/** updates waiting per process at most: reports on messages that never come (another system's) stay bounded */
const MAX_WAITING = 5_000;

const waitingBy = new WeakMap<object, { count: number }>();

/**
 * Runs `again(attempt + 1)` after the attempt's delay when there is one left and room to wait; whether it will.
 * A failure of the later run is logged, never thrown.
 */
export const retryWhenStored = (
  ctx: TAppContext,
  attempt: number,
  again: (attempt: number) => Promise<unknown>,
): boolean => {
  const delay = UNSTORED_RETRY_MS[attempt];
  let waiting = waitingBy.get(ctx);
  if (!waiting) {
    waiting = { count: 0 };
    waitingBy.set(ctx, waiting);
  }
  if (delay === undefined || waiting.count >= MAX_WAITING) return false;
  waiting.count += 1;
  const counter = waiting;
  setTimeout(() => {
    counter.count -= 1;
    again(attempt + 1).catch((err: unknown) => ctx.log.warn({ err }, 'a channel update retried later failed'));
  }, delay).unref();

  return true;
};
