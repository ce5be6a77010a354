CREATE TABLE "sandbox_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"customer" varchar(64) NOT NULL,
	"external_id" varchar(64) NOT NULL,
	"type" varchar(10) NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media" jsonb,
	"location" jsonb,
	"vcard" text,
	"quoted_external_id" varchar(128),
	"ack" smallint DEFAULT 1 NOT NULL,
	"edited" boolean DEFAULT false NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_outbox_type_check" CHECK ("sandbox_outbox"."type" in ('text', 'media', 'location', 'vcard')),
	CONSTRAINT "sandbox_outbox_ack_check" CHECK (ack between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "sandbox_read_marks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"customer" varchar(64) NOT NULL,
	"external_id" varchar(128) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_outbox" ADD CONSTRAINT "sandbox_outbox_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_outbox" ADD CONSTRAINT "sandbox_outbox_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_read_marks" ADD CONSTRAINT "sandbox_read_marks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_read_marks" ADD CONSTRAINT "sandbox_read_marks_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_outbox_customer_idx" ON "sandbox_outbox" USING btree ("company_id","whatsapp_id","customer","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_read_marks_unique" ON "sandbox_read_marks" USING btree ("company_id","whatsapp_id","customer","external_id");