import { QueryClient } from '@tanstack/react-query';
import type { TSubscriptionUsage } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, sessionUser, stubLocalStorage } from '../../testing/renderScreen';
import { invoicesOf, invoiceStatus } from './useSubscription';
import { LAST_INVOICES_KEY, USAGE_KEY } from './useSubscription';

/** Server-side renders (no DOM) of /subscription from a filled query cache. */
// in Portuguese, the default language of the company screens
beforeAll(() => stubLocalStorage([['i18nextLng', 'pt']]));

const usage = (company: Partial<TSubscriptionUsage['company']> = {}): TSubscriptionUsage => ({
  plan: {
    id: 3,
    name: 'Plano Ouro',
    users: 10,
    connections: 2,
    queues: 5,
    value: 199.9,
    useCampaigns: true,
    useSchedules: true,
    useInternalChat: false,
    useExternalApi: false,
    useKanban: true,
    useOpenAi: false,
    useIntegrations: true,
    createdAt: '',
    updatedAt: '',
  },
  usage: { users: 4, connections: 2, queues: 1 },
  company: {
    id: 1,
    name: 'Empresa 1',
    dueDate: '2093-01-05',
    recurrence: 'MENSAL',
    trialExpiration: null,
    onTrial: false,
    trialDaysLeft: null,
    payOnly: false,
    ...company,
  },
});

const INVOICES = [
  { id: 41, detail: 'Plano Ouro', value: 199.9, dueDate: '2093-01-05', status: 'open' },
  { id: 40, detail: 'Plano Ouro', value: 199.9, dueDate: '2092-12-05', status: 'paid' },
];

const render = async (data: TSubscriptionUsage, profile: 'admin' | 'user' = 'admin') => {
  const { default: SubscriptionPage } = await import('./SubscriptionPage');
  const client = new QueryClient();
  client.setQueryData(USAGE_KEY, data);
  client.setQueryData(LAST_INVOICES_KEY, invoicesOf({ invoices: INVOICES, count: 2, hasMore: false }));

  return renderScreen(<SubscriptionPage />, { path: '/subscription', client, user: sessionUser({ profile }) });
};

describe('SubscriptionPage', { timeout: 90_000 }, () => {
  it('shows the plan with its flags as chips, the usage against its limits, the next due date and the invoices', async () => {
    const html = await render(usage());
    expect(html).toContain('Plano Ouro');
    expect(html).toContain('R$');
    expect(html).toContain('199,90');
    expect(html).toMatch(/data-testid="plan-flag-useCampaigns" data-on="true"/);
    expect(html).toMatch(/data-testid="plan-flag-useOpenAi" data-on="false"/);
    expect(html).toContain('Campanhas');
    expect(html).toMatch(/data-testid="usage-users" data-used="4" data-limit="10"/);
    expect(html).toMatch(/data-testid="usage-connections" data-used="2" data-limit="2"/);
    expect(html).toContain('4 de 10');
    expect(html).toContain('data-testid="subscription-next-due"');
    expect(html).toContain('05/01/2093');
    // the open invoice has its PAY action leading to the checkout on /financeiro; the paid one none
    expect(html).toContain('href="/financeiro?pay=41"');
    expect(html).not.toContain('href="/financeiro?pay=40"');
    expect(html).toContain('Paga');
    expect(html).toContain('Em aberto');
  });

  it("shows the trial's days left while on trial", async () => {
    const html = await render(usage({ onTrial: true, trialDaysLeft: 2, trialExpiration: '2093-01-04T10:00:00Z' }));
    expect(html).toContain('data-testid="subscription-trial"');
    expect(html).toContain('Seu período de teste termina em 2 dias!');
    expect(html).not.toContain('data-testid="subscription-next-due"');
  });

  it('says the subscription expired in a pay-only session', async () => {
    const html = await render(usage({ payOnly: true, dueDate: '2020-01-01' }));
    expect(html).toContain('data-testid="subscription-expired"');
    expect(html).toContain('01/01/2020');
  });

  it('an attendant sees the plan and usage but not the invoices', async () => {
    const html = await render(usage(), 'user');
    expect(html).toContain('data-testid="subscription-usage"');
    expect(html).not.toContain('data-testid="subscription-invoices"');
  });

  it('reads the invoice list in its shapes and calls an unpaid invoice past due expired', () => {
    expect(invoicesOf(INVOICES).map((i) => i.id)).toEqual([41, 40]);
    expect(invoicesOf({ records: INVOICES }).map((i) => i.id)).toEqual([41, 40]);
    expect(invoicesOf({ invoices: INVOICES }).map((i) => i.id)).toEqual([41, 40]);
    expect(invoicesOf(null)).toEqual([]);
    const [open, paid] = invoicesOf(INVOICES);
    expect(invoiceStatus(open, '2093-01-05')).toBe('open');
    expect(invoiceStatus(open, '2093-01-06')).toBe('expired');
    expect(invoiceStatus(paid, '2099-01-01')).toBe('paid');
  });
});
