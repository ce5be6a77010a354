DROP INDEX "ticket_trackings_company_finished_idx";--> statement-breakpoint
CREATE INDEX "ticket_trackings_company_started_idx" ON "ticket_trackings" USING btree ("company_id","started_at","queued_at");--> statement-breakpoint
CREATE INDEX "ticket_trackings_company_finished_idx" ON "ticket_trackings" USING btree ("company_id","finished_at","user_id","started_at","rating_at");