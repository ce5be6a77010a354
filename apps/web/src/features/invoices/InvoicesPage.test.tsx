import { QueryClient } from '@tanstack/react-query';
import type { TCompany, TInvoice, TPixCheckout, TPlan } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';

/** Server-side renders (no DOM) of the invoices page and of the checkout wizard's steps. */
beforeAll(() => stubLocalStorage([['i18nextLng', 'pt']]));

const invoice = (fields: Partial<TInvoice>): TInvoice => ({
  id: 1,
  companyId: 1,
  detail: 'Plano 1',
  value: 30,
  dueDate: '2031-01-10',
  status: 'open',
  paidAt: null,
  paidVia: null,
  paidByName: null,
  createdAt: '',
  updatedAt: '',
  ...fields,
});

const plan = (fields: Partial<TPlan>): TPlan => ({
  id: 1,
  name: 'Plano 1',
  users: 3,
  connections: 2,
  queues: 4,
  value: 30,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  createdAt: '',
  updatedAt: '',
  ...fields,
});

const company = {
  id: 1,
  name: 'Empresa 1',
  email: 'empresa@x.com',
  planId: 1,
  recurrence: 'TRIMESTRAL',
  billingName: 'Ana Pagadora',
  cpfCnpj: '52998224725',
} as TCompany;

describe('InvoicesPage', { timeout: 90_000 }, () => {
  it('shows PAID on a paid invoice, PAY on the others, and marks the overdue unpaid row', async () => {
    const { default: InvoicesPage } = await import('./InvoicesPage');
    const client = new QueryClient();
    client.setQueryData(['invoices', 'page', '', {}], {
      pages: [
        {
          invoices: [
            invoice({ id: 7, status: 'open', dueDate: '2031-02-10', value: 1234.5 }),
            invoice({ id: 6, status: 'expired', dueDate: '2020-01-10' }),
            invoice({ id: 5, status: 'paid', dueDate: '2019-12-10' }),
          ],
          hasMore: false,
          count: 3,
        },
      ],
      pageParams: [1],
    });

    const html = await renderScreen(<InvoicesPage />, { path: '/financeiro', client });

    expect(html).toContain('Faturas');
    expect(html).toContain('data-testid="invoice-pay-7"');
    expect(html).toContain('data-testid="invoice-pay-6"');
    expect(html).toContain('data-testid="invoice-paid-5"');
    expect(html).not.toContain('data-testid="invoice-pay-5"');
    expect(html).toMatch(
      /data-testid="invoice-row-6"[^>]*data-status="expired"|data-status="expired"[^>]*data-testid="invoice-row-6"/,
    );
    expect(html).toContain('Vencido');
    expect(html).toContain('R$\u00a01.234,50');
    expect(html).toContain('10/02/2031');
  });
});

describe('CheckoutWizard', { timeout: 90_000 }, () => {
  it('opens on the plan step with the plans to choose and the company data kept', async () => {
    const { CheckoutWizard } = await import('./CheckoutDialog');
    const html = await renderScreen(
      <CheckoutWizard
        invoice={invoice({ id: 9 })}
        company={company}
        plans={[plan({ id: 1 }), plan({ id: 2, name: 'Plano Pro', value: 99 })]}
        onClose={() => undefined}
      />,
      { path: '/financeiro?pay=9' },
    );
    expect(html).toContain('data-testid="checkout-plan-1"');
    expect(html).toContain('data-testid="checkout-plan-2"');
    expect(html).toContain('Plano atual');
    expect(html).toContain('data-testid="checkout-next"');
    expect(html).toContain('data-testid="checkout-back"');
    for (const step of ['Dados', 'Personalizar', 'Revisar', 'Pix']) expect(html).toContain(step);
    expect(html).not.toContain('data-testid="checkout-pay"');
  });

  it('charges what the server will: the invoice, or another plan times the recurrence', async () => {
    const { checkoutAmount } = await import('./CheckoutDialog');
    expect(checkoutAmount(invoice({ value: 90 }), company, plan({ id: 1, value: 30 }))).toBe(90);
    expect(checkoutAmount(invoice({ value: 90 }), company, plan({ id: 2, value: 99.9 }))).toBe(299.7);
  });

  it('shows the Pix code: amount, QR image and copy-and-paste payload', async () => {
    const { PixStep } = await import('./CheckoutDialog');
    const pix: TPixCheckout = {
      txid: 'pay_1',
      status: 'ATIVA',
      valor: { original: '30.00' },
      solicitacaoPagador: '#Fatura:9',
      qrcode: { qrcode: '00020101PIXPAYLOAD', imagemQrcode: 'data:image/png;base64,AAAA' },
      invoiceId: 9,
      planId: 1,
      planName: 'Plano 1',
      amount: 30,
      expiresAt: null,
    };
    const html = await renderScreen(<PixStep pix={pix} />, { path: '/financeiro' });
    expect(html).toContain('src="data:image/png;base64,AAAA"');
    expect(html).toContain('00020101PIXPAYLOAD');
    expect(html).toContain('R$\u00a030,00');
    expect(html).toContain('Aguardando o pagamento...');
  });
});

describe('CompanyInvoices (super user, companies tab)', { timeout: 90_000 }, () => {
  it('offers "mark paid" on unpaid invoices only and shows who marked a paid one and when', async () => {
    const { CompanyInvoices } = await import('./CompanyInvoicesDialog');
    const client = new QueryClient();
    client.setQueryData(['invoices', 'page', '', { companyId: 5 }], {
      pages: [
        {
          invoices: [
            invoice({ id: 12, companyId: 5, status: 'open' }),
            invoice({
              id: 11,
              companyId: 5,
              status: 'paid',
              paidVia: 'manual',
              paidByName: 'Super Sofia',
              paidAt: '2030-03-04T15:00:00.000Z',
            }),
            invoice({ id: 10, companyId: 5, status: 'paid', paidVia: 'asaas', paidAt: '2030-02-04T15:00:00.000Z' }),
          ],
          hasMore: false,
          count: 3,
        },
      ],
      pageParams: [1],
    });
    const html = await renderScreen(<CompanyInvoices company={{ ...company, id: 5 }} />, {
      path: '/settings',
      client,
    });
    expect(html).toContain('data-testid="company-invoice-markpaid-12"');
    expect(html).not.toContain('data-testid="company-invoice-markpaid-11"');
    expect(html).toContain('Marcada paga por Super Sofia em 04/03/2030');
    expect(html).toContain('Paga via Pix em 04/02/2030');
  });
});
