CREATE TABLE "ticket_search" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"words" "tsvector" NOT NULL
);
--> statement-breakpoint
DROP INDEX "messages_search_idx";--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_search_ticket_idx" ON "ticket_search" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_search_words_idx" ON "ticket_search" USING gin ("words");--> statement-breakpoint
CREATE INDEX "tickets_company_updated_idx" ON "tickets" USING btree ("company_id","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- the words of the tickets already stored: contact name, number (whole and its last 8-11 digits) and messages
INSERT INTO "ticket_search" ("ticket_id", "company_id", "words")
SELECT t."id", t."company_id", strip(to_tsvector('simple'::regconfig, c."name" || ' ' || c."number" || ' ' || right(c."number", 8)
  || ' ' || right(c."number", 9) || ' ' || right(c."number", 10) || ' ' || right(c."number", 11) || ' '
  || coalesce((SELECT left(string_agg(coalesce(m."body", ''), ' '), 1000000) FROM "messages" m
               WHERE m."ticket_id" = t."id" AND NOT m."is_deleted"), '')))
FROM "tickets" t JOIN "contacts" c ON c."id" = t."contact_id";--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "search_vector";