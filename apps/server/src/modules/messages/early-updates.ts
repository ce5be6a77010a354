import type { TAppContext } from '../../lib/context';

/**
 * A channel may report on a message (an ack, a late failure, an edit, a delete) before the send that made it has
 * recorded the channel's id: a batch records its ids together once every send of it has answered, and a fast
 * transport acks within milliseconds. Such an update is parked here. The send that records the id releases it at
 * once (`releaseEarlyUpdates`, a map look-up per recorded id); one the node never records itself (sent by another
 * node) is tried again after each of these delays, then dropped.
 */
export const EARLY_UPDATE_RETRY_MS = [1_000, 5_000, 30_000] as const;

/** updates parked per process at most: reports on messages that never come (another system's) stay bounded */
const MAX_PARKED = 5_000;

type TParked = { attempt: number; run: (attempt: number) => Promise<unknown>; timer: NodeJS.Timeout };
type TPark = { count: number; byKey: Map<string, TParked[]> };

const parks = new WeakMap<object, TPark>();

const parkOf = (ctx: TAppContext) => {
  let park = parks.get(ctx);
  if (!park) {
    park = { count: 0, byKey: new Map() };
    parks.set(ctx, park);
  }

  return park;
};

const keyOf = (whatsappId: number, externalId: string) => `${whatsappId}:${externalId}`;

const runLogged = (ctx: TAppContext, entry: TParked) =>
  entry.run(entry.attempt + 1).catch((err: unknown) => ctx.log.warn({ err }, 'an early channel update failed'));

const unpark = (park: TPark, key: string, entry: TParked) => {
  const list = park.byKey.get(key) ?? [];
  const left = list.filter((e) => e !== entry);
  if (left.length === list.length) return false;
  if (left.length > 0) park.byKey.set(key, left);
  else park.byKey.delete(key);
  park.count -= 1;
  clearTimeout(entry.timer);

  return true;
};

/**
 * Parks an update for a channel id no message carries yet (`attempt` = how many times it was tried); `run` applies
 * it again. Answers whether it was parked (false: no retry left, or the park is full).
 */
export const parkEarlyUpdate = (
  ctx: TAppContext,
  whatsappId: number,
  externalId: string,
  attempt: number,
  run: (attempt: number) => Promise<unknown>,
): boolean => {
  const delay = EARLY_UPDATE_RETRY_MS[attempt];
  const park = parkOf(ctx);
  if (delay === undefined || park.count >= MAX_PARKED) return false;
  const key = keyOf(whatsappId, externalId);
  const entry: TParked = {
    attempt,
    run,
    timer: setTimeout(() => {
      if (unpark(park, key, entry)) void runLogged(ctx, entry);
    }, delay).unref(),
  };
  park.byKey.set(key, [...(park.byKey.get(key) ?? []), entry]);
  park.count += 1;

  return true;
};

/** the ids a send has just recorded: the updates parked for them are applied now, in the order they came */
export const releaseEarlyUpdates = (ctx: TAppContext, whatsappId: number | null, externalIds: string[]) => {
  const park = parks.get(ctx);
  if (!park || park.count === 0 || whatsappId === null) return;
  for (const externalId of externalIds) {
    const key = keyOf(whatsappId, externalId);
    for (const entry of [...(park.byKey.get(key) ?? [])]) {
      if (unpark(park, key, entry)) void runLogged(ctx, entry);
    }
  }
};
