import type { TDbOrTx } from '../../db/client';
import { queryRows } from '../../db/statements';

/**
 * The simulated customers of flow test runs (contacts with `is_test`, flows/test-run.ts): found by their run
 * for the editor's "end", or by their silence for the sweep, and forgotten whole (their contact row takes its
 * tickets, messages, runs and steps with it; the sandbox's far side is kept apart, by number).
 */

export type TTestCustomer = { companyId: number; contactId: number; number: string; connectionId: number | null };

/** the test customer of a company's test run */
export const testCustomerOfRun = async (db: TDbOrTx, companyId: number, runId: number) =>
  (
    await queryRows<TTestCustomer>(
      db,
      `select c.company_id as "companyId", c.id as "contactId", c.number, c.whatsapp_id as "connectionId"
       from flow_runs r join tickets t on t.id = r.ticket_id join contacts c on c.id = t.contact_id
       where r.company_id = $1 and r.id = $2 and r.test and c.is_test`,
      [companyId, runId],
    )
  )[0] ?? null;

/** test customers, of every company, silent since `before` (neither they nor any of their tickets changed since) */
export const idleTestCustomers = async (db: TDbOrTx, before: Date, limit = 200) =>
  queryRows<TTestCustomer>(
    db,
    `select c.company_id as "companyId", c.id as "contactId", c.number, c.whatsapp_id as "connectionId"
     from contacts c
     where c.is_test and c.updated_at < $1::timestamptz
       and not exists (select 1 from tickets t where t.contact_id = c.id and t.updated_at >= $1::timestamptz)
     order by c.id limit $2`,
    [before.toISOString(), limit],
  );

/** the media files of a contact's messages (removed from disk after the rows) */
export const mediaOfContact = async (db: TDbOrTx, companyId: number, contactId: number) =>
  (
    await queryRows<{ name: string }>(
      db,
      `select m.media_url as name from messages m join tickets t on t.id = m.ticket_id
       where t.company_id = $1 and t.contact_id = $2 and m.media_url is not null`,
      [companyId, contactId],
    )
  ).map((r) => r.name);

/** the test customer's rows: the contact (and by cascade everything of its), and what the sandbox holds of its number */
export const deleteTestCustomer = async (db: TDbOrTx, customer: TTestCustomer) => {
  await queryRows(db, 'delete from contacts where company_id = $1 and id = $2 and is_test', [
    customer.companyId,
    customer.contactId,
  ]);
  if (customer.connectionId === null) return;
  for (const table of ['sandbox_outbox', 'sandbox_read_marks']) {
    await queryRows(db, `delete from ${table} where company_id = $1 and whatsapp_id = $2 and customer = $3`, [
      customer.companyId,
      customer.connectionId,
      customer.number,
    ]);
  }
};
