ALTER TABLE "contacts" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "is_test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "contacts_test_idx" ON "contacts" USING btree ("updated_at") WHERE "contacts"."is_test";--> statement-breakpoint
-- a flow test run's simulated customer is no lead of the dashboard (its tickets have no trackings: ticket-lifecycle.ts)
CREATE OR REPLACE FUNCTION dashboard_events(c contacts) RETURNS SETOF dashboard_event LANGUAGE sql IMMUTABLE AS $$
	SELECT c.company_id, c.created_at, 0, 0, 0, 0::bigint, 0, 0, 0::bigint, 0, 0, 1
	WHERE NOT c.is_group AND NOT c.is_test AND c.company_id IS NOT NULL
$$;
