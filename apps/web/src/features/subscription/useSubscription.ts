import { useQuery } from '@tanstack/react-query';
import type { TSubscriptionUsage } from '@zelo/shared';
import { api } from '../../api/http';

export const USAGE_KEY = ['subscription', 'usage'] as const;
export const LAST_INVOICES_KEY = ['subscription', 'invoices'] as const;

/** how many of the newest invoices the screen lists (the rest are on /financeiro) */
export const LAST_INVOICES = 5;

export type TInvoiceSummary = { id: number; detail: string; value: number; dueDate: string; status: string };

/** GET /invoices answers `{invoices, count, hasMore}`; older shapes (`records`, a bare array) are read too */
export const invoicesOf = (answer: unknown): TInvoiceSummary[] => {
  const rows = Array.isArray(answer)
    ? answer
    : ((answer as { invoices?: unknown[]; records?: unknown[] } | null)?.invoices ??
      (answer as { records?: unknown[] } | null)?.records ??
      []);

  return (rows as Partial<TInvoiceSummary>[])
    .filter((r) => typeof r?.id === 'number')
    .map((r) => ({
      id: r.id as number,
      detail: String(r.detail ?? ''),
      value: Number(r.value ?? 0),
      dueDate: String(r.dueDate ?? ''),
      status: String(r.status ?? 'open'),
    }));
};

/** an unpaid invoice past its due date reads as expired, whatever the stored status says */
export const invoiceStatus = (invoice: TInvoiceSummary, today: string) =>
  invoice.status === 'paid' ? 'paid' : invoice.dueDate && invoice.dueDate < today ? 'expired' : 'open';

export const useSubscriptionUsage = () =>
  useQuery({ queryKey: USAGE_KEY, queryFn: () => api.get<TSubscriptionUsage>('/subscription/usage') });

/** the newest invoices (admins only: the route is theirs) */
export const useLastInvoices = (enabled: boolean) =>
  useQuery({
    queryKey: LAST_INVOICES_KEY,
    enabled,
    queryFn: async () =>
      invoicesOf(await api.get<unknown>('/invoices', { params: { pageNumber: 1 } })).slice(0, LAST_INVOICES),
  });
