import { bigint, bigserial, index, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { tsz } from './_columns';
import { companies } from './core';

/**
 * The dashboard's figures per company, UTC bucket and attendant (ARCHITECTURE, "Dashboard rollup"). `userId` 0
 * holds the company's totals (cycles created, accepted with their wait, finished with their talk time, leads);
 * an attendant's row holds what that attendant finished and the ratings received. Sums of durations are whole
 * microseconds, so subtracting a contribution gives back exactly what was added.
 */
const figures = {
  /** cycles created (`ticket_trackings.created_at`) */
  created: integer().notNull().default(0),
  /** cycles accepted after being queued (`started_at > queued_at`, by `started_at`) and their wait */
  waits: integer().notNull().default(0),
  waitUs: bigint({ mode: 'number' }).notNull().default(0),
  /** cycles finished (by `finished_at`); those with a talk time, and its sum */
  finished: integer().notNull().default(0),
  supports: integer().notNull().default(0),
  supportUs: bigint({ mode: 'number' }).notNull().default(0),
  /** ratings received (`user_ratings.created_at`), and the sum of their rates */
  ratings: integer().notNull().default(0),
  ratingSum: integer().notNull().default(0),
  /** non-group contacts created */
  leads: integer().notNull().default(0),
};

/**
 * Folded figures in three tiers: `span` is the bucket's width in minutes (15, 60 or 1440), `bucket` its UTC start.
 * Written only by the fold (`dashboard_fold()`), read together with the deltas not yet folded.
 */
export const dashboardRollup = pgTable(
  'dashboard_rollup',
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    span: smallint().notNull(),
    userId: integer().notNull(),
    bucket: tsz().notNull(),
    ...figures,
  },
  (t) => [primaryKey({ columns: [t.companyId, t.span, t.userId, t.bucket] })],
);

/**
 * Changes to the figures, appended by triggers on `ticket_trackings`, `user_ratings` and `contacts` (a row's old
 * contribution subtracted, its new one added) in 15-minute buckets; insert-only, so no write waits on another.
 * No foreign key: a company being deleted still appends the deltas of its cascaded rows (the fold drops them).
 */
export const dashboardDeltas = pgTable(
  'dashboard_deltas',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    companyId: integer().notNull(),
    bucket: tsz().notNull(),
    userId: integer().notNull(),
    ...figures,
  },
  (t) => [index('dashboard_deltas_company_bucket_idx').on(t.companyId, t.bucket)],
);
