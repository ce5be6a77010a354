/**
 * Service-level targets: per queue (queues.sla_first_response_minutes, queues.sla_resolution_hours) and a company
 * default (settings `slaFirstResponseMinutes`, `slaResolutionHours`; '' = none), each target the queue's own when
 * set, else the company's. Counted in business hours (lib/business-hours: the company's or the queue's working
 * hours as `scheduleType` says, in the company's zone).
 *
 * A cycle starts when a ticket is made, reopened (closed → open/pending) or returned from open to pending: the
 * trigger `tickets_sla_cycle` (migration 0019) stamps `sla_started_at`, clears the previous cycle's figures and
 * sets `sla_dirty`. The checker (`slaPass`, every SLA_CHECK_MS on each node with JOBS=on) computes the due times of
 * dirty tickets (rows locked, skip locked: one node each) and announces the ticket with them; then claims missed
 * targets with one UPDATE … WHERE breached_at IS NULL RETURNING each (partial indexes on the due times of open,
 * unanswered/unresolved cycles), so a breach is stamped and notified exactly once across nodes: the event
 * `company-{id}-sla` (TSlaBreachEvent) to the assigned agent's room — or, while nobody has the ticket, its queue's
 * notification room — and the company's admins (the supervisors: Zelo has no supervisor profile). The web app
 * plays the notification sound and shows a notice.
 *
 * Due times are stored, not computed at read: the list stays a plain read and the client counts the time left
 * from `ticket.sla` (startedAt, firstResponseDueAt, firstResponseAt, resolutionDueAt). Changing a target (queue or
 * company) or moving a ticket to another queue marks the open tickets concerned dirty: their due times are
 * computed again from the same cycle start with the new targets, from the next check on. A breach already
 * stamped in the cycle stays (notified once per cycle and target).
 *
 * First response = the first message sent by an agent (source 'agent' with a user; not bots, flows, AI, automatic
 * texts): `touchTicketAfterMessage(…, { agentReply: true })` stamps `sla_first_response_at` in the same UPDATE.
 *
 * Per-cycle figures for reports ("share within target"), on tickets — the current cycle; a reopen starts anew:
 * - sla_started_at: the cycle's start
 * - sla_first_response_due_at / sla_resolution_due_at: due times (null = no target)
 * - sla_first_response_at: the first agent reply of the cycle
 * - sla_first_response_breached_at / sla_resolution_breached_at: when the checker found the target missed
 * - sla_first_response_met / sla_resolution_met: true within target, false missed, null undecided or no target;
 *   first response decided at the reply (or the breach, or at closing past due); resolution at closing (met when
 *   closed by its due time) or at the breach.
 * Counting: `count(*) filter (where sla_resolution_met) / count(sla_resolution_met)`. Past cycles of a reopened
 * ticket are not kept here: each decided outcome is copied onto the ticket's latest attendance cycle
 * (`ticket_trackings.sla_*_met`, trigger `tickets_sla_to_cycle`, migration 0022), where the reports count them.
 * Flow test tickets need no targets: the base this was built on has no `tickets.is_test` yet (see the report).
 */
export { computeDirtyDueTimes, slaPass, startSlaTicker } from './sla-checker';
export { markOpenTicketsDirty } from './sla.repo';
export { dueTimes, effectiveTargets, slaCalendar, targetOfSetting, type TSlaTargets } from './sla-targets';
