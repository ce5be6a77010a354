CREATE TABLE "cloud_api_inbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"payload" text NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cloud_api_inbox" ADD CONSTRAINT "cloud_api_inbox_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cloud_api_inbox_whatsapp_idx" ON "cloud_api_inbox" USING btree ("whatsapp_id","id");