import {
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps, tsz } from './_columns';
import { companyRef, oneOf } from './_tenant';
import { invoices, plans } from './core';

export const PAYMENT_STATUSES = ['pending', 'paid', 'expired', 'cancelled', 'failed'] as const;

/** charges created at checkout (Pix and others); the provider's webhook settles them by `txid` */
export const payments = pgTable(
  'payments',
  {
    id: serial().primaryKey(),
    companyId: companyRef(),
    invoiceId: integer().references(() => invoices.id, { onDelete: 'set null' }),
    /** e.g. `efi`, `asaas`, `sandbox` */
    provider: varchar({ length: 20 }).notNull(),
    txid: varchar({ length: 100 }).notNull(),
    /** taken from the invoice, never from the client */
    amount: numeric({ precision: 12, scale: 2, mode: 'number' }).notNull(),
    /** the plan chosen at checkout: the company moves to it once paid */
    planId: integer().references(() => plans.id, { onDelete: 'set null' }),
    status: varchar({ length: 10 }).notNull().default('pending'),
    /** Pix copy-and-paste code / QR payload shown to the payer */
    qrCode: text(),
    expiresAt: tsz(),
    paidAt: tsz(),
    /** the provider's last answer or webhook body */
    payload: jsonb().$type<unknown>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payments_provider_txid_unique').on(t.provider, t.txid),
    index('payments_company_idx').on(t.companyId, t.createdAt),
    index('payments_invoice_idx').on(t.invoiceId),
    check('payments_status_check', oneOf(t.status, PAYMENT_STATUSES)),
  ],
);
