-- fair automatic assignment per queue (auto_assign, auto_assign_max), agents who pause (users.away) and the
-- tie-break of the last assignment; the rating's optional comment and its wait; each agent's open tickets by index
ALTER TABLE "users" ADD COLUMN "away" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "auto_assign" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "auto_assign_max" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD COLUMN "comment" text;--> statement-breakpoint
ALTER TABLE "user_ratings" ADD COLUMN "comment_due_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "tickets_open_user_idx" ON "tickets" USING btree ("company_id","user_id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "user_ratings_comment_due_idx" ON "user_ratings" USING btree ("comment_due_at") WHERE comment_due_at is not null;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_auto_assign_max_check" CHECK (auto_assign_max between 1 and 100);