import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, apiLogin, signUpCompany, type TCompanyAdmin } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TOpenedPage,
  screenshot,
  waitForPath,
  waitForSocketReady,
  waitForToast,
} from '../support/browser';

type TInvoice = { id: number; status: string; value: number; dueDate: string; paidVia: string | null };

/** The fake Asaas the e2e server charges through (support/global-setup.ts), driven from here. */
const asaas = {
  payments: async () =>
    (await (await fetch(`${inject('asaasUrl')}/__control/payments`)).json()) as {
      id: string;
      value: number;
      externalReference: string;
    }[],
  fire: async (paymentId: string) => {
    const res = await fetch(`${inject('asaasUrl')}/__control/fire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paymentId, event: 'PAYMENT_RECEIVED' }),
    });

    return (await res.json()) as { status: number; body: { settled?: boolean } };
  },
};

describe('invoices and the Pix checkout', () => {
  let browser: Browser;
  let tab: TOpenedPage;
  let admin: TCompanyAdmin;
  let superToken: string;
  let invoice: TInvoice;
  let companyId: number;

  const companyInvoices = () =>
    apiCall<{ invoices: TInvoice[] }>('GET', `/invoices?companyId=${companyId}`, {
      token: superToken,
    });

  beforeAll(async () => {
    admin = await signUpCompany('Pagante');
    superToken = await apiLogin(inject('superEmail'), inject('superPassword'));
    const companies = await apiCall<{ id: number; email: string; dueDate: string }[]>('GET', '/companies/list', {
      token: superToken,
    });
    companyId = companies.find((c) => c.email === admin.email)!.id;
    // the trial's invoice is written at sign-up
    [invoice] = (await companyInvoices()).invoices;
    expect(invoice).toMatchObject({ status: 'open' });
    browser = await launchBrowser();
    tab = await openPage(browser, { language: 'pt', theme: 'dark' });
    await loginThroughUi(tab.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('an admin pays an invoice through the wizard and lands on / with the renewal message', async () => {
    const { page } = tab;
    await page.getByTestId('menu-financeiro').click();
    await waitForPath(page, '/financeiro');
    await page.getByTestId(`invoice-row-${invoice.id}`).waitFor();
    await screenshot(page, 'financeiro-pt-dark');

    await page.getByTestId(`invoice-pay-${invoice.id}`).click();
    await page.waitForURL((url) => url.searchParams.get('pay') === String(invoice.id));
    // the wizard opens on the plan step, the company's plan chosen
    const dialog = page.getByTestId('checkout-dialog');
    await dialog.getByTestId('checkout-next').waitFor();
    await screenshot(page, 'checkout-plan-pt-dark');

    // no payer data yet: the plan step sends the admin to the data step
    await dialog.getByTestId('checkout-next').click();
    await waitForToast(page, 'warning', 'Preencha os dados do pagador para continuar');
    await dialog.getByTestId('checkout-cpfcnpj').fill('529.982.247-26');
    await dialog.getByTestId('checkout-name').fill('Ana Pagadora');
    await dialog.getByTestId('checkout-next').click();
    await dialog.getByText('CPF ou CNPJ inválido').waitFor();
    await dialog.getByTestId('checkout-cpfcnpj').fill('529.982.247-25');
    await dialog.getByTestId('checkout-next').click();
    // plan step again, then the review with the server's price
    await dialog.getByTestId('checkout-back').waitFor();
    await dialog.getByTestId('checkout-next').click();
    expect(await dialog.getByTestId('checkout-total').textContent()).toBe('R$\u00a030,00');

    const readies = tab.socketReadies();
    await dialog.getByTestId('checkout-pay').click();
    await dialog.getByTestId('checkout-pix').waitFor();
    expect(await dialog.getByTestId('checkout-pix-amount').textContent()).toBe('R$\u00a030,00');
    expect(await dialog.getByTestId('checkout-pix-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const code = await dialog.getByTestId('checkout-pix-code').inputValue();
    expect(code).toContain('br.gov.bcb.pix');
    await dialog.getByTestId('checkout-waiting').waitFor();
    await screenshot(page, 'checkout-pix-pt-dark');
    if (readies === 0) await waitForSocketReady(tab);

    // Asaas receives the Pix and calls the webhook
    const charge = (await asaas.payments()).find((p) => p.externalReference === `invoice:${invoice.id}`);
    expect(charge?.value).toBe(30);
    expect(await asaas.fire(charge!.id)).toMatchObject({ status: 200, body: { settled: true } });

    await waitForToast(page, 'success', /^Sua licença foi renovada até \d{2}\/\d{2}\/\d{4}!$/);
    await waitForPath(page, '/');
    const paid = (await companyInvoices()).invoices.find((i) => i.id === invoice.id);
    expect(paid).toMatchObject({ status: 'paid', paidVia: 'asaas' });
    expectNoPageErrors(tab);
  });

  it('shows the paid invoice as PAID, also at 390 px', async () => {
    const { page } = tab;
    await page.goto('/financeiro');
    await page.getByTestId(`invoice-paid-${invoice.id}`).waitFor();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByTestId(`invoice-paid-${invoice.id}`).waitFor();
    await screenshot(page, 'financeiro-pt-dark-390');
    expectNoPageErrors(tab);
  });
});
