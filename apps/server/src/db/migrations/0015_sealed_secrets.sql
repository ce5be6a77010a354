DROP INDEX "whatsapps_token_unique";--> statement-breakpoint
ALTER TABLE "whatsapps" ALTER COLUMN "token" SET DATA TYPE varchar(400);--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "token_hash" varchar(64);--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_token_hash_unique" ON "whatsapps" USING btree ("token_hash");