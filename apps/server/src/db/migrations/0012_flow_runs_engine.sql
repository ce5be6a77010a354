CREATE TABLE "flow_run_steps" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"node_id" varchar(100),
	"node_type" varchar(20),
	"status" varchar(10) NOT NULL,
	"reason" varchar(50),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flow_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"flow_id" integer,
	"ticket_id" integer NOT NULL,
	"status" varchar(10) DEFAULT 'running' NOT NULL,
	"wait" varchar(10),
	"node_id" varchar(100),
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"steps" integer DEFAULT 0 NOT NULL,
	"resume_at" timestamp with time zone,
	"test" boolean DEFAULT false NOT NULL,
	"reason" varchar(50),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flow_runs_status_check" CHECK ("flow_runs"."status" in ('running', 'waiting', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "flow_run_steps" ADD CONSTRAINT "flow_run_steps_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_run_steps" ADD CONSTRAINT "flow_run_steps_run_id_flow_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."flow_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_runs" ADD CONSTRAINT "flow_runs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_runs" ADD CONSTRAINT "flow_runs_flow_id_flow_builders_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flow_builders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_runs" ADD CONSTRAINT "flow_runs_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flow_run_steps_run_idx" ON "flow_run_steps" USING btree ("run_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "flow_runs_active_ticket_unique" ON "flow_runs" USING btree ("ticket_id") WHERE status in ('running', 'waiting');--> statement-breakpoint
CREATE INDEX "flow_runs_company_idx" ON "flow_runs" USING btree ("company_id","flow_id");--> statement-breakpoint
CREATE INDEX "flow_runs_due_idx" ON "flow_runs" USING btree ("resume_at") WHERE wait = 'interval';