import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../support/api';
import {
  dayFromToday,
  expectNoPageErrors,
  expectToastsStacked,
  fillLogin,
  launchBrowser,
  openPage,
  type TOpenedPage,
  screenshot,
  waitForPath,
  waitForToast,
} from '../support/browser';

describe('sign-up and login', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  const id = unique();
  const company = { name: `Padaria ${id}`, email: `dono-${id}@e2e.test`, password: 'Padaria-1' };

  beforeAll(async () => {
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'pt', theme: 'light' });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('signs a new company up through /signup and lands on /login with a success toast', async () => {
    const { page } = opened;
    await page.goto('/login');
    await page.getByTestId('login-signup').click();
    await waitForPath(page, '/signup');

    await page.getByTestId('signup-name').fill(company.name);
    await page.getByTestId('signup-email').fill(company.email);
    await page.getByTestId('signup-password').fill(company.password);
    // typed digit by digit, as a user does: every keystroke goes through the mask
    await page.getByTestId('signup-phone').pressSequentially('11999998888');
    expect(await page.getByTestId('signup-phone').inputValue()).toBe('(11) 99999-8888');

    const plan = page.locator('[data-testid="signup-plan"] option', { hasText: 'Plano 1' });
    await plan.waitFor({ state: 'attached' });
    expect(await plan.textContent()).toMatch(/^Plano 1 · Usuários: \d+ · Conexões: \d+ · Filas: \d+ · R\$ [\d.,]+$/);
    await page.getByTestId('signup-plan').selectOption((await plan.getAttribute('value')) ?? '');
    await screenshot(page, 'signup-filled-pt-light');

    await page.getByTestId('signup-submit').click();
    await waitForToast(page, 'success', 'Empresa cadastrada com sucesso! Faça o login.');
    await waitForPath(page, '/login');
  });

  it('shows the translated error for a wrong password and stays on /login', async () => {
    const { page } = opened;
    // right away, while the sign-up toast is still on screen (toasts last 3 s)
    await fillLogin(page, company.email, 'wrong-password');
    const toast = await waitForToast(page, 'error', /autenticação/);
    await page.getByTestId('toast-success').waitFor();
    await expectToastsStacked(page);
    const text = (await toast.textContent()) ?? '';
    expect(text).toContain('Erro de autenticação. Por favor, tente novamente.');
    expect(text).not.toMatch(/ERR_|Invalid credentials/);
    expect(await page.getByTestId('greeting').count()).toBe(0);
    await waitForPath(page, '/login');
    await screenshot(page, 'login-wrong-password-pt-light');
  });

  it('logs in: the greeting names the user and the company, with the trial due date 3 days ahead', async () => {
    const { page } = opened;
    await page.getByTestId('login-password').fill(company.password);
    await page.getByTestId('login-submit').click();

    const greeting = page.getByTestId('greeting');
    await greeting.waitFor({ timeout: 15_000 });
    await waitForPath(page, '/');
    // the admin of a sign-up is named like the company
    expect(await greeting.textContent()).toContain(`Olá ${company.name}, seja bem-vindo(a) a ${company.name}!`);
    expect(await page.getByTestId('greeting-due-date').textContent()).toBe(`(Ativo até ${dayFromToday(3)})`);
    // a trial ending within 5 days is announced at login
    await waitForToast(page, 'warning', 'Sua assinatura vence em 3 dias');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    await screenshot(page, 'dashboard-pt-light');
    expectNoPageErrors(opened);
  });
});
