import { and, eq, isNotNull, isNull, notLike, or, sql } from 'drizzle-orm';
import { lookupHash, openSecret, sealSecret, sealSecretFields } from '../lib/secrets';
import type { TDb } from './client';
import { whatsapps } from './schema/connections';

/**
 * Start-up data step after the migrations (main.ts → runMigrations `after`): connections written before
 * their secrets were sealed (migration 0015) get the API token sealed with its lookup hash beside it, and
 * each Cloud API secret (`channel_secret`) sealed. It needs ZELO_SECRET_KEY, which SQL migrations do not
 * have. Idempotent and safe with several nodes starting together: a sealed value is never sealed again,
 * and a row is rewritten only while it still holds what was read (compare-and-set), so a racing node's
 * write is neither doubled nor lost. Answers how many rows it rewrote.
 */
const SEALED = 'enc:v1:%';

const plainSecretField = sql`exists (select 1 from jsonb_each(${whatsapps.channelSecret}) f
  where jsonb_typeof(f.value) <> 'string' or (f.value #>> '{}' <> '' and f.value #>> '{}' not like ${SEALED}))`;

export const sealLegacySecrets = async (db: TDb): Promise<number> => {
  const rows = await db
    .select({ id: whatsapps.id, token: whatsapps.token, channelSecret: whatsapps.channelSecret })
    .from(whatsapps)
    .where(
      or(
        and(isNotNull(whatsapps.token), or(isNull(whatsapps.tokenHash), notLike(whatsapps.token, SEALED))),
        plainSecretField,
      ),
    );
  let rewritten = 0;
  for (const row of rows) {
    const plainToken = openSecret(row.token);
    const updated = await db
      .update(whatsapps)
      .set({
        token: plainToken ? sealSecret(row.token as string) : null,
        tokenHash: plainToken ? lookupHash(plainToken) : null,
        channelSecret: sealSecretFields(row.channelSecret ?? {}),
      })
      .where(
        and(
          eq(whatsapps.id, row.id),
          sql`${whatsapps.token} is not distinct from ${row.token}`,
          sql`${whatsapps.channelSecret} = ${JSON.stringify(row.channelSecret ?? {})}::jsonb`,
        ),
      )
      .returning({ id: whatsapps.id });
    rewritten += updated.length;
  }

  return rewritten;
};
