import { announceItemsReload } from './contact-lists.events';
import { AppError } from '../../http/errors';
import type { TAppContext } from '../../lib/context';
import { connectedConnection, storeValidity, uncheckedItems } from './contact-lists.repo';

/**
 * WhatsApp validity of list items (`isWhatsappValid`), checked in the background through a CONNECTED
 * connection of the company (its default one first) with the channel session's `checkNumber`: never in the
 * request that created the items. One run per company at a time walks the unchecked items in id order, in
 * batches, a few lookups at once; a request during a run makes one more run after it. A failed lookup leaves
 * the item unchecked (null, no campaign); a company without a connected connection keeps its items unchecked
 * until a "check again". Each batch announces a `reload` of the lists it touched.
 */

const BATCH = 200;
const PARALLEL = 8;

type TRun = { again: boolean; done: Promise<void> };
const runs = new WeakMap<TAppContext, Map<number, TRun>>();

const runsOf = (ctx: TAppContext) => {
  let map = runs.get(ctx);
  if (!map) {
    map = new Map();
    runs.set(ctx, map);
  }

  return map;
};

const announceLists = async (ctx: TAppContext, companyId: number, listIds: Iterable<number>) => {
  for (const contactListId of listIds) await announceItemsReload(ctx, companyId, contactListId);
};

/** checks every unchecked item of the company once; answers when done */
const checkAll = async (ctx: TAppContext, companyId: number) => {
  const connection = await connectedConnection(ctx.db, companyId);
  if (!connection) return;
  const session = ctx.channels.session(connection.id);
  let afterId = 0;
  for (;;) {
    const batch = await uncheckedItems(ctx.db, companyId, afterId, BATCH);
    if (batch.length === 0) return;
    afterId = batch[batch.length - 1].id;
    const touched = new Set<number>();
    let stopped = false;
    for (let i = 0; i < batch.length && !stopped; i += PARALLEL) {
      await Promise.all(
        batch.slice(i, i + PARALLEL).map(async (item) => {
          let canonical: string | null;
          try {
            canonical = await session.checkNumber(item.number);
          } catch (err) {
            // the session went away: the rest stays unchecked for a later run
            if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') stopped = true;
            else ctx.log.warn({ err, companyId, itemId: item.id }, 'contact list number check failed');
            return;
          }
          await storeValidity(ctx.db, companyId, item.id, canonical !== null, canonical?.replace(/\D/g, '') || null);
          touched.add(item.contactListId);
        }),
      );
    }
    await announceLists(ctx, companyId, touched);
    if (stopped) return;
  }
};

/** asks for a check of the company's unchecked items (does not wait for it) */
export const requestValidityCheck = (ctx: TAppContext, companyId: number) => {
  const map = runsOf(ctx);
  const current = map.get(companyId);
  if (current) {
    current.again = true;
    return current.done;
  }
  const run: TRun = { again: false, done: Promise.resolve() };
  run.done = (async () => {
    try {
      do {
        run.again = false;
        await checkAll(ctx, companyId);
      } while (run.again);
    } catch (err) {
      ctx.log.warn({ err, companyId }, 'contact list validity check stopped');
    } finally {
      map.delete(companyId);
    }
  })();
  map.set(companyId, run);

  return run.done;
};

/** the company's running check, if any (tests wait on it) */
export const validityCheckDone = (ctx: TAppContext, companyId: number) =>
  runsOf(ctx).get(companyId)?.done ?? Promise.resolve();
