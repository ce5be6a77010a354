CREATE TABLE "contact_counts" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"contacts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tags" ADD COLUMN "tickets_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_counts" ADD CONSTRAINT "contact_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Contacts found by any part of a name, e-mail or number with an index (contacts.repo.ts says which serves which
-- search), and the counts of the contacts and tags pages kept as rows are written instead of counted per request.
-- pg_trgm is a trusted extension (PostgreSQL 13+: the database's owner may create it); PGlite loads it at start
-- (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- the name and the e-mail as a search compares them: accents folded as modules/tickets/search-fold.ts folds them,
-- lowercased, a newline between the two so that no search matches across both
ALTER TABLE "contacts" ADD COLUMN "search" text GENERATED ALWAYS AS (
	lower(translate("name", 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy')) || chr(10) || lower(translate("email", 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy'))) STORED;--> statement-breakpoint
-- the distinct one- and two-character pieces of a contact's `search` (none holding the newline): what answers the
-- searches too short for trigrams ("an" is in a contact exactly when 'an' is one of its pieces)
CREATE FUNCTION contact_grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
	SELECT coalesce(array_agg(DISTINCT s.g), '{}') FROM (
		SELECT substr(t, i, 1) FROM generate_series(1, length(t)) i
		UNION ALL
		SELECT substr(t, i, 2) FROM generate_series(1, length(t) - 1) i
	) s(g) WHERE strpos(s.g, chr(10)) = 0
$$;--> statement-breakpoint
CREATE INDEX "contacts_search_trgm_idx" ON "contacts" USING gin ("search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_number_trgm_idx" ON "contacts" USING gin ("number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_search_grams_idx" ON "contacts" USING gin (contact_grams("search"));--> statement-breakpoint
-- the contacts page's order with `search` (and `name`, which lower(name) is read from) beside it: a common term
-- is found walking the name order in the index alone, no row read per contact passed over (once vacuum has marked
-- the pages all-visible)
CREATE INDEX "contacts_company_order_idx" ON "contacts" USING btree ("company_id", lower("name"), "id")
	INCLUDE ("search", "name") WHERE NOT "is_test";--> statement-breakpoint
-- contact_counts: a statement's inserted and deleted contacts counted per company in one upsert (a bulk import is
-- one row change, not one per contact); a company deleted meanwhile gets no row back
CREATE FUNCTION contact_counts_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO contact_counts AS x (company_id, contacts)
		SELECT n.company_id, count(*) FROM new_rows n
		WHERE NOT n.is_test AND EXISTS (SELECT 1 FROM companies c WHERE c.id = n.company_id)
		GROUP BY 1 ORDER BY 1
		ON CONFLICT (company_id) DO UPDATE SET contacts = x.contacts + excluded.contacts;
	ELSE
		UPDATE contact_counts x SET contacts = x.contacts - o.n
		FROM (SELECT company_id, count(*)::int AS n FROM old_rows WHERE NOT is_test GROUP BY 1) o
		WHERE x.company_id = o.company_id;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER contact_counts_insert AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION contact_counts_write();--> statement-breakpoint
CREATE TRIGGER contact_counts_delete AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION contact_counts_write();--> statement-breakpoint
-- a contact moved or made (not) a test customer: rare, so one row at a time
CREATE FUNCTION contact_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NOT OLD.is_test THEN
		UPDATE contact_counts SET contacts = contacts - 1 WHERE company_id = OLD.company_id;
	END IF;
	IF NOT NEW.is_test THEN
		INSERT INTO contact_counts AS x (company_id, contacts) VALUES (NEW.company_id, 1)
		ON CONFLICT (company_id) DO UPDATE SET contacts = x.contacts + 1;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER contact_counts_update AFTER UPDATE OF company_id, is_test ON contacts FOR EACH ROW
	WHEN (OLD.company_id IS DISTINCT FROM NEW.company_id OR OLD.is_test IS DISTINCT FROM NEW.is_test)
	EXECUTE FUNCTION contact_counts_move();--> statement-breakpoint
-- tags.tickets_count: a statement's tag rows counted per tag, the tags changed in id order (two statements tagging
-- the same tickets lock the tags in the same order); a tag deleted with its rows has nothing left to change
CREATE FUNCTION tag_counts_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	IF TG_OP = 'INSERT' THEN
		FOR r IN SELECT tag_id, count(*)::int AS n FROM new_rows GROUP BY tag_id ORDER BY tag_id LOOP
			UPDATE tags SET tickets_count = tickets_count + r.n WHERE id = r.tag_id;
		END LOOP;
	ELSE
		FOR r IN SELECT tag_id, count(*)::int AS n FROM old_rows GROUP BY tag_id ORDER BY tag_id LOOP
			UPDATE tags SET tickets_count = tickets_count - r.n WHERE id = r.tag_id;
		END LOOP;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER tag_counts_insert AFTER INSERT ON ticket_tags REFERENCING NEW TABLE AS new_rows
	FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_write();--> statement-breakpoint
CREATE TRIGGER tag_counts_delete AFTER DELETE ON ticket_tags REFERENCING OLD TABLE AS old_rows
	FOR EACH STATEMENT EXECUTE FUNCTION tag_counts_write();--> statement-breakpoint
CREATE FUNCTION tag_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE tags SET tickets_count = tickets_count - 1 WHERE id = OLD.tag_id;
	UPDATE tags SET tickets_count = tickets_count + 1 WHERE id = NEW.tag_id;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER tag_counts_update AFTER UPDATE OF tag_id ON ticket_tags FOR EACH ROW
	WHEN (OLD.tag_id IS DISTINCT FROM NEW.tag_id) EXECUTE FUNCTION tag_counts_move();--> statement-breakpoint
-- what is stored already (also for a database whose rows were loaded with the triggers off: bench/generate.ts)
CREATE FUNCTION contact_and_tag_counts_rebuild() RETURNS void LANGUAGE sql AS $$
	INSERT INTO contact_counts AS x (company_id, contacts)
	SELECT c.id, (SELECT count(*) FROM contacts k WHERE k.company_id = c.id AND NOT k.is_test) FROM companies c
	ON CONFLICT (company_id) DO UPDATE SET contacts = excluded.contacts;
	UPDATE tags g SET tickets_count = n.n FROM (
		SELECT g2.id, (SELECT count(*) FROM ticket_tags tt WHERE tt.tag_id = g2.id)::int AS n FROM tags g2
	) n WHERE g.id = n.id AND g.tickets_count <> n.n;
$$;--> statement-breakpoint
SELECT contact_and_tag_counts_rebuild();
--> statement-breakpoint
-- statistics for the new expression indexes, so the planner knows how common a piece is from the start
ANALYZE "contacts";
