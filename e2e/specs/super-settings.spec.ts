import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, signUpCompany, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TOpenedPage,
  screenshot,
  waitForPath,
  waitForToast,
} from '../support/browser';

const cells = async (row: Locator) => (await row.locator('td').allTextContents()).map((t) => t.trim());

describe('settings of the super user', () => {
  let browser: Browser;
  let superTab: TOpenedPage;
  let admin: TCompanyAdmin;
  const id = unique();
  const plan = { name: `Plano E2E ${id}`, users: '3', connections: '2', queues: '4', value: '49.9' };
  const help = { title: `Primeiros passos ${id}`, video: 'dQw4w9WgXcQ', description: `Como começar a atender ${id}` };

  beforeAll(async () => {
    admin = await signUpCompany('Cliente');
    browser = await launchBrowser();
    superTab = await openPage(browser, { language: 'pt', theme: 'light' });
    await loginThroughUi(superTab.page, inject('superEmail'), inject('superPassword'));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the options, failed deliveries, companies, plans and helps tabs to the super user, and lists the companies', async () => {
    const { page } = superTab;
    await page.getByTestId('menu-settings').click();
    await waitForPath(page, '/settings');
    for (const tab of ['options', 'failedDeliveries', 'companies', 'plans', 'helps']) {
      await page.getByTestId(`settings-tab-${tab}`).waitFor();
    }
    expect(await page.getByRole('tab').allTextContents()).toEqual([
      'Opções',
      'Entregas com falha',
      'Empresas',
      'Planos',
      'Ajuda',
    ]);
    await screenshot(page, 'settings-options-pt-light');

    // failed deliveries: the company's list (empty) and, for the super user, the counts per company
    await page.getByTestId('settings-tab-failedDeliveries').click();
    await page.getByTestId('failed-deliveries-empty').waitFor();
    await page.getByTestId('failed-delivery-counts').waitFor();

    await page.getByTestId('settings-tab-companies').click();
    const row = page.getByTestId(`company-row-${admin.email}`);
    await row.waitFor();
    expect(await cells(row)).toEqual(expect.arrayContaining([admin.companyName, admin.email]));
    await screenshot(page, 'settings-companies-pt-light');
  });

  it('creates a plan, which the table and the sign-up screen then offer', async () => {
    const { page } = superTab;
    await page.getByTestId('settings-tab-plans').click();
    await page.getByTestId('plan-name').waitFor();
    await page.getByTestId('plan-name').fill(plan.name);
    await page.getByTestId('plan-users').fill(plan.users);
    await page.getByTestId('plan-connections').fill(plan.connections);
    await page.getByTestId('plan-queues').fill(plan.queues);
    await page.getByTestId('plan-value').fill(plan.value);
    await page.getByTestId('plan-useKanban').uncheck();
    await page.getByTestId('plan-save').click();
    await waitForToast(page, 'success', 'Plano salvo com sucesso!');

    const row = page.getByTestId(`plan-row-${plan.name}`);
    await row.waitFor();
    const values = await cells(row);
    expect(values.slice(0, 4)).toEqual([plan.name, plan.users, plan.connections, plan.queues]);
    expect(values[4].replace(/\s/g, ' ')).toBe('R$ 49,90');
    // the form is empty again for the next plan
    expect(await page.getByTestId('plan-name').inputValue()).toBe('');
    await screenshot(page, 'settings-plans-pt-light');

    const visitor = await openPage(browser, { language: 'pt' });
    await visitor.page.goto('/signup');
    await visitor.page
      .locator('[data-testid="signup-plan"] option', { hasText: plan.name })
      .waitFor({ state: 'attached' });
    await visitor.context.close();

    const stored = (await apiCall<{ name: string; useKanban: boolean; value: number }[]>('GET', '/plans/list')).find(
      (p) => p.name === plan.name,
    );
    expect(stored).toMatchObject({ useKanban: false, value: 49.9 });
  });

  it('creates a help entry that a company admin then sees on /helps', async () => {
    const { page } = superTab;
    await page.getByTestId('settings-tab-helps').click();
    await page.getByTestId('help-title').fill(help.title);
    await page.getByTestId('help-video').fill(`https://www.youtube.com/watch?v=${help.video}`);
    await page.getByTestId('help-description').fill(help.description);
    await page.getByTestId('help-save').click();
    await waitForToast(page, 'success', 'Ajuda salva com sucesso!');
    const row = page.getByTestId(`help-row-${help.title}`);
    await row.waitFor();
    expect((await cells(row))[0]).toBe(help.title);
    await screenshot(page, 'settings-helps-pt-light');

    const adminTab = await openPage(browser, { language: 'pt', theme: 'light' });
    // the player is YouTube's; the test machine stays offline
    await adminTab.context.route(/youtube\.com/, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<html><body>video</body></html>' }),
    );
    await loginThroughUi(adminTab.page, admin.email, admin.password);
    await adminTab.page.getByTestId('menu-helps').click();
    await waitForPath(adminTab.page, '/helps');
    const card = adminTab.page.locator('[data-testid^="help-card-"]', { hasText: help.title });
    await card.waitFor();
    expect(await card.textContent()).toContain(help.description);
    await screenshot(adminTab.page, 'helps-pt-light');

    await card.getByRole('button').click();
    const frame = adminTab.page.getByTestId('help-video-frame');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toContain(`/embed/${help.video}`);
    await adminTab.page.getByRole('button', { name: 'Fechar' }).click();
    await frame.waitFor({ state: 'detached' });

    // a company admin has the options and failed deliveries tabs only
    await adminTab.page.getByTestId('menu-settings').click();
    await adminTab.page.getByTestId('settings-tab-options').waitFor();
    expect(await adminTab.page.getByRole('tab').count()).toBe(2);
    await adminTab.page.getByTestId('settings-tab-failedDeliveries').click();
    await adminTab.page.getByTestId('failed-deliveries-empty').waitFor();
    expect(await adminTab.page.getByTestId('failed-delivery-counts').count()).toBe(0);
    expectNoPageErrors(adminTab);
    await adminTab.context.close();
  });

  it('changes a company option (userRating), which is saved and survives a reload', async () => {
    const { page } = superTab;
    await page.getByTestId('settings-tab-options').click();
    const select = page.getByTestId('setting-userRating');
    await select.waitFor();
    const before = await select.inputValue();
    const next = before === 'enabled' ? 'disabled' : 'enabled';
    await select.selectOption(next);
    await waitForToast(page, 'success', 'Configuração salva com sucesso!');

    await page.reload();
    await page.getByTestId('setting-userRating').waitFor();
    await expectValue(page.getByTestId('setting-userRating'), next);
    // the page's own session (a second login would sign this tab out)
    const token = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
    const settings = await apiCall<{ key: string; value: string }[]>('GET', '/settings', { token });
    expect(settings.find((s) => s.key === 'userRating')?.value).toBe(next);
    expectNoPageErrors(superTab);
  });
});

const expectValue = async (select: Locator, value: string) => {
  await expect.poll(() => select.inputValue()).toBe(value);
};
