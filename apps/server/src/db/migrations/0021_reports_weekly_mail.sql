-- the weekly summary e-mail (modules/reports/weekly-mail.ts): a sender's claim on an opt-in and the retry of a failed
-- send; and the flow test tickets of a company, which the reports leave out (reports.repo.ts)
ALTER TABLE "report_mail_optins" ADD COLUMN "busy_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_mail_optins" ADD COLUMN "attempts" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "tickets_test_idx" ON "tickets" USING btree ("company_id") WHERE is_test;