ALTER TABLE "queues" ADD COLUMN "sla_first_response_minutes" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_resolution_hours" integer;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_dirty" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_response_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolution_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_response_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_response_breached_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolution_breached_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_response_met" boolean;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolution_met" boolean;--> statement-breakpoint
CREATE INDEX "tickets_sla_dirty_idx" ON "tickets" USING btree ("id") WHERE sla_dirty;--> statement-breakpoint
CREATE INDEX "tickets_sla_first_due_idx" ON "tickets" USING btree ("sla_first_response_due_at") WHERE sla_first_response_due_at is not null and sla_first_response_at is null and sla_first_response_breached_at is null and status <> 'closed';--> statement-breakpoint
CREATE INDEX "tickets_sla_resolution_due_idx" ON "tickets" USING btree ("sla_resolution_due_at") WHERE sla_resolution_due_at is not null and sla_resolution_breached_at is null and status <> 'closed';--> statement-breakpoint
-- Service-level cycles (modules/sla/index.ts): a cycle starts when a ticket is made, reopened, or returned from open
-- to pending; it clears the previous cycle's figures and asks the checker to compute the due times (sla_dirty).
-- Closing decides the resolution (met when closed by its due time) and a first response never given past its due
-- time (missed). A queue change asks for the due times again (the new queue's targets, from the same start).
CREATE FUNCTION tickets_sla_cycle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	-- a flow test run's ticket (0017) has no service level
	IF NEW.is_test THEN
		RETURN NEW;
	END IF;
	IF TG_OP = 'INSERT' THEN
		IF NEW.status <> 'closed' THEN
			NEW.sla_started_at := now();
			NEW.sla_dirty := true;
		END IF;
		RETURN NEW;
	END IF;
	IF NEW.status <> 'closed' AND (OLD.status = 'closed' OR (OLD.status = 'open' AND NEW.status = 'pending')) THEN
		NEW.sla_started_at := now();
		NEW.sla_dirty := true;
		NEW.sla_first_response_due_at := NULL;
		NEW.sla_resolution_due_at := NULL;
		NEW.sla_first_response_at := NULL;
		NEW.sla_first_response_breached_at := NULL;
		NEW.sla_resolution_breached_at := NULL;
		NEW.sla_first_response_met := NULL;
		NEW.sla_resolution_met := NULL;
	ELSIF NEW.status = 'closed' AND OLD.status <> 'closed' THEN
		NEW.sla_dirty := false;
		IF NEW.sla_resolution_due_at IS NOT NULL AND NEW.sla_resolution_met IS NULL THEN
			NEW.sla_resolution_met := now() <= NEW.sla_resolution_due_at;
		END IF;
		IF NEW.sla_first_response_met IS NULL AND NEW.sla_first_response_due_at IS NOT NULL
			AND now() > NEW.sla_first_response_due_at THEN
			NEW.sla_first_response_met := false;
		END IF;
	ELSIF NEW.status <> 'closed' AND NEW.queue_id IS DISTINCT FROM OLD.queue_id THEN
		NEW.sla_dirty := true;
	END IF;
	RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_sla_cycle BEFORE INSERT OR UPDATE OF status, queue_id ON tickets
	FOR EACH ROW EXECUTE FUNCTION tickets_sla_cycle();
--> statement-breakpoint
-- the tickets open now start their cycle at their creation; no target exists yet, so nothing is due
UPDATE tickets SET sla_started_at = created_at WHERE status <> 'closed';
