ALTER TABLE "campaign_shippings" ADD COLUMN "name" varchar(200) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "email" varchar(254) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "message_id" varchar(64);--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "message_row_id" integer;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "claimed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "at_least_once" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_shippings" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_shippings_campaign_number_unique" ON "campaign_shippings" USING btree ("campaign_id","number");--> statement-breakpoint
CREATE INDEX "campaign_shippings_due_idx" ON "campaign_shippings" USING btree ("state","scheduled_for");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_outbox_external_unique" ON "sandbox_outbox" USING btree ("whatsapp_id","external_id");