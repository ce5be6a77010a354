-- The computed dashboard (issue 23 item 5) read from indexes alone (an index-only scan once autovacuum has marked
-- the pages all-visible):
-- - the open and pending counts (dashboard.repo.ts `readFiguresAndUsers`): the existing indexes found a company's waiting
--   tickets but `not is_test` was checked on each one's heap page (12 ms for 8,000 tickets; 1 ms from this index);
-- - the rollup's primary key carries the figures it sums, so a window's buckets are read from the key's pages
--   instead of one scattered heap page per bucket (the figures statement 3.5 → 1.5 ms over 90 days, 1 M cycles).
--   Same name and key columns (what the drizzle schema declares and the fold's ON CONFLICT infers); the rebuild
--   locks writes to the rollup for its duration (about a second per 400,000 rollup rows).
CREATE INDEX "tickets_active_count_idx" ON "tickets" USING btree ("company_id","status") WHERE status in ('open', 'pending') and not is_test;--> statement-breakpoint
ALTER TABLE "dashboard_rollup" DROP CONSTRAINT "dashboard_rollup_company_id_span_user_id_bucket_pk";--> statement-breakpoint
ALTER TABLE "dashboard_rollup" ADD CONSTRAINT "dashboard_rollup_company_id_span_user_id_bucket_pk"
	PRIMARY KEY ("company_id", "span", "user_id", "bucket")
	INCLUDE ("created", "waits", "wait_us", "finished", "supports", "support_us", "ratings", "rating_sum", "leads");
