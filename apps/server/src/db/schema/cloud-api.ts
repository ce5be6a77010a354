import { bigserial, index, integer, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { tsz } from './_columns';
import { whatsapps } from './connections';

/**
 * Cloud API webhooks stored as received (the signed raw body) before they are acknowledged, and deleted
 * once the owning node's session has handed their events to the pipeline. A crash between the two leaves
 * the rows for the next start; a replay is harmless (messages are stored once per wamid, acks only rise).
 */
export const cloudApiInbox = pgTable(
  'cloud_api_inbox',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    whatsappId: integer()
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    payload: text().notNull(),
    /** processing attempts: a row that keeps failing is dropped after a few */
    attempts: smallint().notNull().default(0),
    receivedAt: tsz().notNull().defaultNow(),
  },
  (t) => [index('cloud_api_inbox_whatsapp_idx').on(t.whatsappId, t.id)],
);
