import { useQuery, useQueryClient } from '@tanstack/react-query';
import { events, type TCompany, type TInvoice, type TPixCheckout, type TPlan } from '@zelo/shared';
import { api } from '../../api/http';
import { useSocketEvent } from '../../api/socket';
import { useAuth } from '../../app/auth/AuthContext';
import { useInfiniteList } from '../../components/kit';

export const INVOICES_QUERY_KEY = ['invoices', 'page'] as const;

/**
 * GET /invoices page by page (newest due first); a company's list (`companyId`) for the super user's
 * companies tab. A payment of the company (`company-{id}-payment`) reloads it.
 */
export const useInvoices = (searchParam: string, companyId?: number) => {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const list = useInfiniteList<TInvoice>({
    queryKey: INVOICES_QUERY_KEY,
    path: '/invoices',
    itemsKey: 'invoices',
    searchParam,
    params: companyId ? { companyId } : undefined,
  });
  useSocketEvent(user ? events.payment(user.companyId) : '', () => {
    void queryClient.invalidateQueries({ queryKey: INVOICES_QUERY_KEY });
  });

  return list;
};

export const useInvoice = (id: number | null) =>
  useQuery({
    queryKey: ['invoices', 'one', id],
    enabled: id !== null,
    queryFn: () => api.get<TInvoice>(`/invoices/${id}`),
  });

/** the caller's company (its payer data, plan and recurrence) for the checkout */
export const useOwnCompany = (companyId: number | undefined, enabled: boolean) =>
  useQuery({
    queryKey: ['invoices', 'company', companyId],
    enabled: enabled && Boolean(companyId),
    queryFn: () => api.get<TCompany>(`/companies/${companyId}`),
  });

export const usePlanChoices = (enabled: boolean) =>
  useQuery({ queryKey: ['invoices', 'plans'], enabled, queryFn: () => api.get<TPlan[]>('/plans/list') });

export const startCheckout = (body: {
  invoiceId: number;
  firstName: string;
  email: string;
  cpfCnpj: string;
  planId: number;
}) => api.post<TPixCheckout>('/subscription', body);

export const markInvoicePaid = (id: number) => api.put<TInvoice>(`/invoices/${id}`, { status: 'paid' });

/** R$ 1.234,56 */
export const formatMoney = (value: number) => value.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });
