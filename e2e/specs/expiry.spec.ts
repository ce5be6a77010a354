import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, apiLogin, createUser, signUpCompany, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  fillLogin,
  launchBrowser,
  loginThroughUi,
  openPage,
  pathOf,
  screenshot,
  type TOpenedPage,
  waitForPath,
  waitForToast,
} from '../support/browser';

/**
 * Expiry (issue 13 item 4): a company past its due date. Its admin signs in to a pay-only app — only the
 * subscription and invoices screens, with the expiry notice — and its attendant is refused with the message.
 * (Paying and coming back is the billing spec's.)
 */
describe('a company past its due date', () => {
  let browser: Browser;
  let admin: TCompanyAdmin;
  const id = unique();
  const agent = {
    name: `Atendente ${id}`,
    email: `agente-${id}@e2e.test`,
    password: 'agente-pass',
    profile: 'user',
  } as const;
  const opened: TOpenedPage[] = [];

  beforeAll(async () => {
    admin = await signUpCompany('Vencida');
    const login = await apiCall<{ token: string; user: { companyId: number } }>('POST', '/auth/login', {
      body: { email: admin.email, password: admin.password },
    });
    await createUser(login.token, agent);
    const superToken = await apiLogin(inject('superEmail'), inject('superPassword'));
    await apiCall('PUT', `/companies/${login.user.companyId}`, { token: superToken, body: { dueDate: '2020-01-01' } });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const tab of opened) await tab.context.close();
    await browser?.close();
  });

  it('lets its admin in to the subscription and invoices screens only, under the expiry notice', async () => {
    const tab = await openPage(browser, { language: 'pt', theme: 'light' });
    opened.push(tab);
    const { page } = tab;
    // the pay-only app asks nothing of the routes it cannot reach
    const refused: string[] = [];
    page.on('response', (res: Response) => {
      if (res.status() === 402) refused.push(res.url());
    });
    await loginThroughUi(page, admin.email, admin.password);
    await waitForPath(page, '/subscription');
    const notice = page.getByTestId('expiry-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Sua assinatura venceu em 01/01/2020');
    await page.getByTestId('subscription-expired').waitFor();
    await page.getByTestId('subscription-usage').waitFor();
    expect(await page.getByTestId('usage-users').getAttribute('data-used')).toBe('2');

    // the menu holds the two screens, nothing else
    const items = await page
      .getByTestId('side-menu')
      .locator('[data-testid^="menu-"]')
      .evaluateAll((els) =>
        els.map((el) => el.getAttribute('data-testid')).filter((name) => name !== 'menu-administration'),
      );
    expect(items.sort()).toEqual(['menu-financeiro', 'menu-subscription']);

    // any other screen sends it back to /subscription; /financeiro stays
    for (const path of ['/tickets', '/users', '/settings', '/']) {
      await page.goto(path);
      await waitForPath(page, '/subscription');
      await page.getByTestId('expiry-notice').waitFor();
    }
    await page.getByTestId('expiry-pay').click();
    await waitForPath(page, '/financeiro');
    await page.getByTestId('expiry-notice').waitFor();
    await page.goto('/subscription');
    await page.getByTestId('subscription-standing').waitFor();
    await screenshot(page, 'expiry-pay-only-pt-light');

    // at 390 px, dark
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'dark'));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId('expiry-notice').waitFor();
    await page.getByTestId('subscription-usage').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'expiry-pay-only-pt-dark-390');

    expect(refused).toEqual([]);
    expect(pathOf(page)).toBe('/subscription');
    expectNoPageErrors(tab);
  });

  it('refuses its attendant with the expiry message', async () => {
    const tab = await openPage(browser, { language: 'pt', theme: 'light' });
    opened.push(tab);
    const { page } = tab;
    await page.goto('/login');
    await fillLogin(page, agent.email, agent.password);
    await waitForToast(page, 'error', 'Sua assinatura expirou em 01/01/2020. Entre em contato com o suporte.');
    expect(pathOf(page)).toBe('/login');
    expectNoPageErrors(tab);
  });

  it('a company in its trial sees the trial banner on top of its screens', async () => {
    const trial = await signUpCompany('Teste');
    const tab = await openPage(browser, { language: 'pt', theme: 'dark' });
    opened.push(tab);
    const { page } = tab;
    await loginThroughUi(page, trial.email, trial.password);
    const banner = page.getByTestId('trial-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-days')).toBe('3');
    expect(await banner.textContent()).toContain('Seu período de teste termina em 3 dias!');
    await page.goto('/tickets');
    await banner.waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('trial-subscribe').click();
    await waitForPath(page, '/subscription');
    await page.getByTestId('subscription-trial').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'expiry-trial-banner-pt-dark-390');
    expectNoPageErrors(tab);
  });
});
