CREATE TABLE "inbound_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"transport" varchar(20) NOT NULL,
	"kind" varchar(10) DEFAULT 'message' NOT NULL,
	"status" varchar(10) DEFAULT 'pending' NOT NULL,
	"payload" text NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_attempt_at" timestamp with time zone,
	CONSTRAINT "inbound_deliveries_status_check" CHECK ("inbound_deliveries"."status" in ('pending', 'failed')),
	CONSTRAINT "inbound_deliveries_kind_check" CHECK ("inbound_deliveries"."kind" in ('message', 'webhook'))
);
--> statement-breakpoint
ALTER TABLE "inbound_deliveries" ADD CONSTRAINT "inbound_deliveries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_deliveries" ADD CONSTRAINT "inbound_deliveries_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_deliveries_due_idx" ON "inbound_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "inbound_deliveries_company_idx" ON "inbound_deliveries" USING btree ("company_id","status","id");