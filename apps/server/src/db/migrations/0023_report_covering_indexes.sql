-- The reports' three reads of the attendance cycles (modules/reports/reports.repo.ts: by start, by first reply, by
-- resolution) answered from the index alone: each index keeps its name and key (what the drizzle schema declares)
-- and carries the columns those reads filter, group and aggregate by, so a year of a busy company's cycles is read
-- without a heap visit per cycle (an index-only scan once autovacuum has marked the pages all-visible).
-- The rebuild locks writes to ticket_trackings for its duration (about a second per 100,000 cycles).
DROP INDEX IF EXISTS "ticket_trackings_company_created_idx";--> statement-breakpoint
CREATE INDEX "ticket_trackings_company_created_idx" ON "ticket_trackings" USING btree ("company_id", "created_at")
	INCLUDE ("ticket_id", "user_id", "queue_id", "whatsapp_id", "sla_first_response_met", "sla_resolution_met",
		"rating_at", "finished_at");--> statement-breakpoint
DROP INDEX IF EXISTS "ticket_trackings_company_first_reply_idx";--> statement-breakpoint
CREATE INDEX "ticket_trackings_company_first_reply_idx" ON "ticket_trackings" USING btree ("company_id", "first_reply_at")
	INCLUDE ("ticket_id", "first_reply_user_id", "queue_id", "whatsapp_id", "first_response_s", "first_response_bs");--> statement-breakpoint
DROP INDEX IF EXISTS "ticket_trackings_company_resolved_idx";--> statement-breakpoint
CREATE INDEX "ticket_trackings_company_resolved_idx" ON "ticket_trackings" USING btree ("company_id", coalesce("rating_at", "finished_at"))
	INCLUDE ("rating_at", "finished_at", "ticket_id", "user_id", "queue_id", "whatsapp_id", "resolution_s", "resolution_bs",
		"bot_s", "bot_bs", "replies", "reopened_at", "human_at", "first_reply_at", "bot_until");
