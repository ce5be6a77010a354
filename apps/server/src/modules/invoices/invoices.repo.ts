import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../db/client';

/** Invoices for companies whose due date is under 20 days away (one per company and due date). */
export const createDueInvoices = (db: TDbOrTx) =>
  db.execute(sql`
    insert into invoices (company_id, detail, value, due_date, status)
    select c.id, p.name, p.value, c.due_date, 'open'
    from companies c join plans p on p.id = c.plan_id
    where c.status and c.due_date is not null
      and c.due_date::date < (now() at time zone c.timezone)::date + 20
    on conflict (company_id, due_date) do nothing`);
