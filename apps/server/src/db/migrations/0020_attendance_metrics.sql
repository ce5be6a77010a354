-- attendance metrics per cycle (modules/reports): the instants recorded where they happen, the figures computed
-- from them (wall-clock and business seconds), the backfill mark of older cycles, and the weekly e-mail opt-ins
CREATE TABLE "report_mail_optins" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"last_week" varchar(10),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "human_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "first_reply_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "first_reply_user_id" integer;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "transfers" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "reopened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "bot_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "replies" integer;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "first_response_s" integer;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "first_response_bs" integer;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "resolution_s" integer;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "resolution_bs" integer;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "bot_s" integer;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "bot_bs" integer;--> statement-breakpoint
-- the cycles written before this migration are marked for the backfill job (reports/metrics-compute.ts); a new
-- cycle is not: the column is added with DEFAULT true (no table rewrite) and its default then becomes false
ALTER TABLE "ticket_trackings" ADD COLUMN "metrics_backfill" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ALTER COLUMN "metrics_backfill" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "report_mail_optins" ADD CONSTRAINT "report_mail_optins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_mail_optins" ADD CONSTRAINT "report_mail_optins_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_mail_optins_company_idx" ON "report_mail_optins" USING btree ("company_id");--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD CONSTRAINT "ticket_trackings_first_reply_user_id_users_id_fk" FOREIGN KEY ("first_reply_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_trackings_company_resolved_idx" ON "ticket_trackings" USING btree ("company_id",coalesce("rating_at", "finished_at"));--> statement-breakpoint
CREATE INDEX "ticket_trackings_company_first_reply_idx" ON "ticket_trackings" USING btree ("company_id","first_reply_at");--> statement-breakpoint
CREATE INDEX "ticket_trackings_metrics_backfill_idx" ON "ticket_trackings" USING btree ("id") WHERE metrics_backfill;--> statement-breakpoint
CREATE INDEX "ticket_trackings_metrics_due_idx" ON "ticket_trackings" USING btree ("id") WHERE not metrics_backfill and ((first_reply_at is not null and first_response_s is null) or (coalesce(rating_at, finished_at) is not null and resolution_s is null));