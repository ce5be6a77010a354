CREATE TABLE "integration_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"integration_id" integer NOT NULL,
	"ticket_id" integer,
	"delivery_id" uuid NOT NULL,
	"payload" jsonb NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status" integer,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_deliveries_status_check" CHECK ("integration_deliveries"."status" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD COLUMN "flow_id" integer;--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD COLUMN "webhook_secret" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_integration_id_queue_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."queue_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_deliveries_delivery_unique" ON "integration_deliveries" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "integration_deliveries_log_idx" ON "integration_deliveries" USING btree ("company_id","integration_id","id");--> statement-breakpoint
CREATE INDEX "integration_deliveries_due_idx" ON "integration_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE "queue_integrations" ADD CONSTRAINT "queue_integrations_flow_id_flow_builders_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flow_builders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_integrations_flow_idx" ON "queue_integrations" USING btree ("flow_id");