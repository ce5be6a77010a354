ALTER TABLE "ticket_trackings" ADD COLUMN "sla_first_response_met" boolean;--> statement-breakpoint
ALTER TABLE "ticket_trackings" ADD COLUMN "sla_resolution_met" boolean;--> statement-breakpoint
-- A cycle's service-level outcome (issue 25: the reports' share within target): when the ticket's current cycle
-- gets its first-response or resolution outcome (modules/sla: at the reply, the breach, or the closing), it is
-- copied onto the ticket's latest cycle, which keeps it after a reopening starts the next one. Only a decided
-- outcome is copied (a reopening's reset to NULL is not), so the WHEN clause leaves every other update alone.
CREATE FUNCTION tickets_sla_to_cycle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE ticket_trackings SET
		sla_first_response_met = coalesce(NEW.sla_first_response_met, sla_first_response_met),
		sla_resolution_met = coalesce(NEW.sla_resolution_met, sla_resolution_met)
	WHERE id = (SELECT max(id) FROM ticket_trackings WHERE ticket_id = NEW.id) AND company_id = NEW.company_id;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_sla_to_cycle AFTER UPDATE ON tickets FOR EACH ROW
	WHEN ((NEW.sla_first_response_met IS NOT NULL AND NEW.sla_first_response_met IS DISTINCT FROM OLD.sla_first_response_met)
		OR (NEW.sla_resolution_met IS NOT NULL AND NEW.sla_resolution_met IS DISTINCT FROM OLD.sla_resolution_met))
	EXECUTE FUNCTION tickets_sla_to_cycle();
--> statement-breakpoint
-- the outcomes already decided, onto each ticket's latest cycle
UPDATE ticket_trackings t SET sla_first_response_met = k.sla_first_response_met, sla_resolution_met = k.sla_resolution_met
FROM tickets k
WHERE k.id = t.ticket_id AND (k.sla_first_response_met IS NOT NULL OR k.sla_resolution_met IS NOT NULL)
	AND t.id = (SELECT max(x.id) FROM ticket_trackings x WHERE x.ticket_id = k.id);
