ALTER TABLE "companies" ADD COLUMN "cpf_cnpj" varchar(14) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "paid_via" varchar(20);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "paid_by_id" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "paid_by_name" varchar(50);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "plan_id" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_paid_by_id_users_id_fk" FOREIGN KEY ("paid_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;