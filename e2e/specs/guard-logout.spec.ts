import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, createUser, signUpCompany, type TCompanyAdmin, unique } from '../support/api';
import {
  expectBelowTopBar,
  expectNoPageErrors,
  fillLogin,
  launchBrowser,
  loginThroughUi,
  openPage,
  pathOf,
  type TOpenedPage,
  waitForPath,
  waitForSocketReady,
  waitForToast,
} from '../support/browser';

describe('route guards, logout and single session', () => {
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

  const open = async (language: 'pt' | 'en') => {
    const page = await openPage(browser, { language, theme: 'light' });
    opened.push(page);

    return page;
  };

  beforeAll(async () => {
    admin = await signUpCompany('Guardas');
    await createUser(await apiLogin(admin.email, admin.password), agent);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends a visitor of /users to /login and back to /users after the login', async () => {
    const tab = await open('pt');
    const { page } = tab;
    await page.goto('/users');
    await waitForPath(page, '/login');
    await fillLogin(page, admin.email, admin.password);
    await waitForPath(page, '/users');
    await page.getByRole('heading', { name: 'Usuários', level: 1 }).waitFor();
    await page.getByTestId(`user-row-${agent.email}`).waitFor();

    // signed in, /login is not a place to be
    await page.goto('/login');
    await waitForPath(page, '/');
    await page.getByTestId('greeting').waitFor();
    expect(await page.getByTestId('login-submit').count()).toBe(0);
    expectNoPageErrors(tab);
  });

  it('refuses /users to a plain user with a translated toast and sends them away', async () => {
    const tab = await open('pt');
    const { page } = tab;
    await loginThroughUi(page, agent.email, agent.password);
    // a plain user starts at /tickets and has no administration items
    await waitForPath(page, '/tickets');
    expect(await page.getByTestId('menu-users').count()).toBe(0);
    expect(await page.getByTestId('menu-settings').count()).toBe(0);

    await page.goto('/users');
    await expectBelowTopBar(page, await waitForToast(page, 'error', 'Acesso não permitido'));
    expect(await page.getByTestId('users-add').count()).toBe(0);
    await waitForPath(page, '/tickets');
    expectNoPageErrors(tab);
  });

  it('logs out from the account menu; a later visit to /settings asks for the login again', async () => {
    const tab = await open('pt');
    const { page } = tab;
    await loginThroughUi(page, admin.email, admin.password);
    await page.getByTestId('account-menu').click();
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await page.goto('/settings');
    await waitForPath(page, '/login');
    await page.getByTestId('login-submit').waitFor();
    // the refresh cookie was revoked as well: a reload does not bring the session back
    await page.reload();
    await page.getByTestId('login-submit').waitFor();
    expect(pathOf(page)).toBe('/login');
    expectNoPageErrors(tab);
  });

  it('signs the first tab out when the same user logs in from another browser (pt)', async () => {
    const first = await open('pt');
    await loginThroughUi(first.page, agent.email, agent.password);
    await waitForSocketReady(first);

    const second = await open('pt');
    await loginThroughUi(second.page, agent.email, agent.password);

    await waitForToast(first.page, 'error', 'Sua conta foi acessada em outro computador.');
    await waitForPath(first.page, '/login', 15_000);
    await first.page.getByTestId('login-submit').waitFor();
    expect(await first.page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // the newer session stays signed in, also after a reload
    await second.page.reload();
    await second.page.getByTestId('greeting').waitFor();
    expect(pathOf(second.page)).toBe('/tickets');
    expectNoPageErrors(first);
    expectNoPageErrors(second);
  });

  it('shows that message in the language of the tab (en)', async () => {
    const tab = await open('en');
    await loginThroughUi(tab.page, agent.email, agent.password);
    await waitForSocketReady(tab);

    // another computer logs in
    await apiLogin(agent.email, agent.password);
    await waitForToast(tab.page, 'error', 'Your account was accessed from another computer.');
    await waitForPath(tab.page, '/login', 15_000);
    expectNoPageErrors(tab);
  });
});
