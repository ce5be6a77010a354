CREATE TABLE "dashboard_deltas" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"user_id" integer NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"waits" integer DEFAULT 0 NOT NULL,
	"wait_us" bigint DEFAULT 0 NOT NULL,
	"finished" integer DEFAULT 0 NOT NULL,
	"supports" integer DEFAULT 0 NOT NULL,
	"support_us" bigint DEFAULT 0 NOT NULL,
	"ratings" integer DEFAULT 0 NOT NULL,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"leads" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_rollup" (
	"company_id" integer NOT NULL,
	"span" smallint NOT NULL,
	"user_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"waits" integer DEFAULT 0 NOT NULL,
	"wait_us" bigint DEFAULT 0 NOT NULL,
	"finished" integer DEFAULT 0 NOT NULL,
	"supports" integer DEFAULT 0 NOT NULL,
	"support_us" bigint DEFAULT 0 NOT NULL,
	"ratings" integer DEFAULT 0 NOT NULL,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"leads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_rollup_company_id_span_user_id_bucket_pk" PRIMARY KEY("company_id","span","user_id","bucket")
);
--> statement-breakpoint
ALTER TABLE "dashboard_rollup" ADD CONSTRAINT "dashboard_rollup_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dashboard_deltas_company_bucket_idx" ON "dashboard_deltas" USING btree ("company_id","bucket");--> statement-breakpoint
CREATE INDEX "contacts_company_created_idx" ON "contacts" USING btree ("company_id","created_at");--> statement-breakpoint
-- The dashboard rollup's SQL (ARCHITECTURE, "Dashboard rollup"): what each source row contributes, the triggers that
-- append those contributions as deltas, the fold, and the backfill of what is already stored.
CREATE TYPE "dashboard_event" AS (
	"company_id" integer, "at" timestamptz, "user_id" integer, "created" integer, "waits" integer, "wait_us" bigint,
	"finished" integer, "supports" integer, "support_us" bigint, "ratings" integer, "rating_sum" integer, "leads" integer
);
--> statement-breakpoint
CREATE FUNCTION dashboard_us(span interval) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
	SELECT (extract(epoch FROM span) * 1000000)::bigint
$$;
--> statement-breakpoint
-- a cycle: created (totals, at created_at); accepted after being queued, with its wait (totals, at started_at);
-- finished, with its talk time = coalesce(rating_at, finished_at) - started_at when positive (totals and its
-- attendant, at finished_at)
CREATE FUNCTION dashboard_events(t ticket_trackings) RETURNS SETOF dashboard_event LANGUAGE sql IMMUTABLE AS $$
	SELECT t.company_id, e.at, e.user_id, e.created, e.waits, e.wait_us, e.finished, e.finished * s.talked,
		e.finished * s.talk_us, 0, 0, 0
	FROM (SELECT CASE WHEN talked THEN 1 ELSE 0 END AS talked,
			CASE WHEN talked THEN dashboard_us(coalesce(t.rating_at, t.finished_at) - t.started_at) ELSE 0 END AS talk_us
		FROM (SELECT t.started_at IS NOT NULL AND coalesce(t.rating_at, t.finished_at) > t.started_at AS talked) p) s,
		LATERAL (VALUES
			(t.created_at, 0, 1, 0, 0::bigint, 0),
			(CASE WHEN t.started_at > t.queued_at THEN t.started_at END, 0, 0, 1, dashboard_us(t.started_at - t.queued_at), 0),
			(t.finished_at, 0, 0, 0, 0::bigint, 1),
			(CASE WHEN t.user_id IS NOT NULL THEN t.finished_at END, coalesce(t.user_id, 0), 0, 0, 0::bigint, 1)
		) e(at, user_id, created, waits, wait_us, finished)
	WHERE e.at IS NOT NULL AND t.company_id IS NOT NULL
$$;
--> statement-breakpoint
-- a rating: its attendant's, at created_at
CREATE FUNCTION dashboard_events(r user_ratings) RETURNS SETOF dashboard_event LANGUAGE sql IMMUTABLE AS $$
	SELECT r.company_id, r.created_at, r.user_id, 0, 0, 0::bigint, 0, 0, 0::bigint, 1, r.rate::int, 0
	WHERE r.user_id IS NOT NULL AND r.company_id IS NOT NULL
$$;
--> statement-breakpoint
-- a contact that is not a group: a lead (totals, at created_at)
CREATE FUNCTION dashboard_events(c contacts) RETURNS SETOF dashboard_event LANGUAGE sql IMMUTABLE AS $$
	SELECT c.company_id, c.created_at, 0, 0, 0, 0::bigint, 0, 0, 0::bigint, 0, 0, 1
	WHERE NOT c.is_group AND c.company_id IS NOT NULL
$$;
--> statement-breakpoint
-- the row's new contribution minus its old one, per 15-minute UTC bucket and attendant (what did not change cancels)
CREATE FUNCTION dashboard_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO dashboard_deltas (company_id, bucket, user_id, created, waits, wait_us, finished, supports, support_us,
		ratings, rating_sum, leads)
	SELECT e.company_id, date_bin('15 minutes', e.at, timestamptz '2000-01-01 00:00:00+00'), e.user_id,
		sum(e.sign * e.created), sum(e.sign * e.waits), sum(e.sign * e.wait_us), sum(e.sign * e.finished),
		sum(e.sign * e.supports), sum(e.sign * e.support_us), sum(e.sign * e.ratings), sum(e.sign * e.rating_sum),
		sum(e.sign * e.leads)
	FROM (
		SELECT -1 AS sign, o.* FROM dashboard_events(OLD) o WHERE TG_OP <> 'INSERT'
		UNION ALL
		SELECT 1, n.* FROM dashboard_events(NEW) n WHERE TG_OP <> 'DELETE'
	) e
	GROUP BY 1, 2, 3
	HAVING sum(e.sign * e.created) <> 0 OR sum(e.sign * e.waits) <> 0 OR sum(e.sign * e.wait_us) <> 0
		OR sum(e.sign * e.finished) <> 0 OR sum(e.sign * e.supports) <> 0 OR sum(e.sign * e.support_us) <> 0
		OR sum(e.sign * e.ratings) <> 0 OR sum(e.sign * e.rating_sum) <> 0 OR sum(e.sign * e.leads) <> 0;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER dashboard_delta_write AFTER INSERT OR DELETE ON ticket_trackings
	FOR EACH ROW EXECUTE FUNCTION dashboard_delta();
--> statement-breakpoint
CREATE TRIGGER dashboard_delta_update AFTER UPDATE OF company_id, user_id, created_at, queued_at, started_at, finished_at, rating_at
	ON ticket_trackings FOR EACH ROW
	WHEN ((OLD.company_id, OLD.user_id, OLD.created_at, OLD.queued_at, OLD.started_at, OLD.finished_at, OLD.rating_at)
		IS DISTINCT FROM (NEW.company_id, NEW.user_id, NEW.created_at, NEW.queued_at, NEW.started_at, NEW.finished_at, NEW.rating_at))
	EXECUTE FUNCTION dashboard_delta();
--> statement-breakpoint
CREATE TRIGGER dashboard_delta_write AFTER INSERT OR DELETE ON user_ratings
	FOR EACH ROW EXECUTE FUNCTION dashboard_delta();
--> statement-breakpoint
CREATE TRIGGER dashboard_delta_update AFTER UPDATE OF company_id, user_id, rate, created_at ON user_ratings FOR EACH ROW
	WHEN ((OLD.company_id, OLD.user_id, OLD.rate, OLD.created_at) IS DISTINCT FROM (NEW.company_id, NEW.user_id, NEW.rate, NEW.created_at))
	EXECUTE FUNCTION dashboard_delta();
--> statement-breakpoint
CREATE TRIGGER dashboard_delta_write AFTER INSERT OR DELETE ON contacts
	FOR EACH ROW EXECUTE FUNCTION dashboard_delta();
--> statement-breakpoint
CREATE TRIGGER dashboard_delta_update AFTER UPDATE OF company_id, is_group, created_at ON contacts FOR EACH ROW
	WHEN ((OLD.company_id, OLD.is_group, OLD.created_at) IS DISTINCT FROM (NEW.company_id, NEW.is_group, NEW.created_at))
	EXECUTE FUNCTION dashboard_delta();
--> statement-breakpoint
-- moves up to `batch` deltas into the three tiers (15 minutes, an hour, a day) in one statement; concurrent folds take
-- disjoint deltas (SKIP LOCKED) and upsert in key order, so they neither wait on each other's deltas nor deadlock;
-- the deltas of a company deleted meanwhile are dropped. Answers how many deltas it took.
CREATE FUNCTION dashboard_fold(batch integer) RETURNS integer LANGUAGE sql AS $$
	WITH d AS (
		DELETE FROM dashboard_deltas
		WHERE id IN (SELECT id FROM dashboard_deltas ORDER BY id LIMIT batch FOR UPDATE SKIP LOCKED)
		RETURNING *
	), q AS (
		SELECT d.company_id, d.bucket, d.user_id, sum(d.created) AS created, sum(d.waits) AS waits,
			sum(d.wait_us) AS wait_us, sum(d.finished) AS finished, sum(d.supports) AS supports,
			sum(d.support_us) AS support_us, sum(d.ratings) AS ratings, sum(d.rating_sum) AS rating_sum, sum(d.leads) AS leads
		FROM d WHERE EXISTS (SELECT 1 FROM companies c WHERE c.id = d.company_id)
		GROUP BY 1, 2, 3
	), up AS (
		INSERT INTO dashboard_rollup AS x (company_id, span, user_id, bucket, created, waits, wait_us, finished, supports,
			support_us, ratings, rating_sum, leads)
		SELECT q.company_id, s.span, q.user_id, date_bin(s.width, q.bucket, timestamptz '2000-01-01 00:00:00+00'),
			sum(q.created), sum(q.waits), sum(q.wait_us), sum(q.finished), sum(q.supports), sum(q.support_us),
			sum(q.ratings), sum(q.rating_sum), sum(q.leads)
		FROM q CROSS JOIN (VALUES (15, interval '15 minutes'), (60, interval '1 hour'), (1440, interval '1 day')) s(span, width)
		GROUP BY 1, 2, 3, 4
		ORDER BY 1, 2, 3, 4
		ON CONFLICT (company_id, span, user_id, bucket) DO UPDATE SET
			created = x.created + excluded.created, waits = x.waits + excluded.waits,
			wait_us = x.wait_us + excluded.wait_us, finished = x.finished + excluded.finished,
			supports = x.supports + excluded.supports, support_us = x.support_us + excluded.support_us,
			ratings = x.ratings + excluded.ratings, rating_sum = x.rating_sum + excluded.rating_sum,
			leads = x.leads + excluded.leads
	)
	SELECT count(*)::int FROM d
$$;
--> statement-breakpoint
-- the rollup rebuilt from what is stored (the deltas dropped): for a database nobody writes to meanwhile (this
-- migration; a benchmark that wrote its rows with the triggers off)
CREATE FUNCTION dashboard_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM dashboard_deltas;
	DELETE FROM dashboard_rollup;
	INSERT INTO dashboard_rollup (company_id, span, user_id, bucket, created, waits, wait_us, finished, supports,
		support_us, ratings, rating_sum, leads)
	WITH e AS (
		SELECT e.* FROM ticket_trackings t, dashboard_events(t) e
		UNION ALL SELECT e.* FROM user_ratings r, dashboard_events(r) e
		UNION ALL SELECT e.* FROM contacts c, dashboard_events(c) e
	), q AS (
		SELECT e.company_id, date_bin('15 minutes', e.at, timestamptz '2000-01-01 00:00:00+00') AS bucket, e.user_id,
			sum(e.created) AS created, sum(e.waits) AS waits, sum(e.wait_us) AS wait_us, sum(e.finished) AS finished,
			sum(e.supports) AS supports, sum(e.support_us) AS support_us, sum(e.ratings) AS ratings,
			sum(e.rating_sum) AS rating_sum, sum(e.leads) AS leads
		FROM e GROUP BY 1, 2, 3
	)
	SELECT q.company_id, s.span, q.user_id, date_bin(s.width, q.bucket, timestamptz '2000-01-01 00:00:00+00'),
		sum(q.created), sum(q.waits), sum(q.wait_us), sum(q.finished), sum(q.supports), sum(q.support_us),
		sum(q.ratings), sum(q.rating_sum), sum(q.leads)
	FROM q CROSS JOIN (VALUES (15, interval '15 minutes'), (60, interval '1 hour'), (1440, interval '1 day')) s(span, width)
	GROUP BY 1, 2, 3, 4;
END
$$;
--> statement-breakpoint
SELECT dashboard_rebuild();
