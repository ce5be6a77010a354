CREATE TABLE "ticket_search" (
	"ticket_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"words" "tsvector" NOT NULL
);
--> statement-breakpoint
DROP INDEX "messages_search_idx";--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_search" ADD CONSTRAINT "ticket_search_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_search_words_idx" ON "ticket_search" USING gin ("words");--> statement-breakpoint
-- the words of the messages already stored, one row per ticket
INSERT INTO "ticket_search" ("ticket_id", "company_id", "words")
SELECT "ticket_id", min("company_id"), strip(to_tsvector('simple'::regconfig, left(string_agg(coalesce("body", ''), ' '), 1000000)))
FROM "messages" WHERE NOT "is_deleted" GROUP BY "ticket_id";--> statement-breakpoint
ALTER TABLE "messages" DROP COLUMN "search_vector";