import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TOpenedPage,
  screenshot,
  waitForPath,
} from '../support/browser';
import { companyWithApiAdmin, createSandboxConnection, customerWrites, pairSandbox, until } from '../support/inbox';

/**
 * The dashboard after a simulated day (issue 13): four customers write through the sandbox, the company's
 * second admin accepts three and resolves two through the API; the first admin opens `/` and reads the
 * counters, the attendants table and both charts (drawn as SVG bars).
 */

const counter = (page: Page, key: string) => page.getByTestId(`dashboard-counter-${key}`);

describe('dashboard after a day of tickets', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let helperId: number;
  const id = unique();

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Dash'));
    const users = await apiCall<{ id: number; name: string }[]>('GET', '/users/list', { token });
    helperId = users.find((u) => u.name.startsWith('API '))?.id ?? 0;
    const connectionId = await createSandboxConnection(token, `Dash ${id}`);
    await pairSandbox(token, connectionId);
    const customers = [1, 2, 3, 4].map((n) => ({
      number: `5521${String(Date.now() + n).slice(-9)}`,
      name: `Dash customer ${n} ${id}`,
    }));
    for (const c of customers) await customerWrites(token, connectionId, c.number, c.name, 'Bom dia!');
    let ticketIds: number[] = [];
    await until('four waiting tickets', async () => {
      const list = await apiCall<{ tickets: { id: number; contact: { name: string } }[] }>(
        'GET',
        '/tickets?status=pending&showAll=true',
        { token },
      );
      ticketIds = customers
        .map((c) => list.tickets.find((t) => t.contact.name === c.name)?.id ?? 0)
        .filter((ticketId) => ticketId > 0);

      return ticketIds.length === 4;
    });
    for (const ticketId of ticketIds.slice(0, 3))
      await apiCall('PUT', `/tickets/${ticketId}`, { token, body: { status: 'open', userId: helperId } });
    for (const ticketId of ticketIds.slice(0, 2))
      await apiCall('PUT', `/tickets/${ticketId}`, { token, body: { status: 'closed', userId: helperId } });
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'pt', theme: 'dark' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the counters, the attendants and both charts', async () => {
    const { page } = opened;
    await page.goto('/');
    await waitForPath(page, '/');
    await expect.poll(() => counter(page, 'supportFinished').textContent(), { timeout: 30_000 }).toBe('2');
    expect(await counter(page, 'supportHappening').textContent()).toBe('1');
    expect(await counter(page, 'supportPending').textContent()).toBe('1');
    expect(await counter(page, 'leads').textContent()).toBe('4');
    expect(await counter(page, 'avgSupportTime').textContent()).toMatch(/^\d{2,}h \d{2}m$/);
    const helperRow = page.getByTestId(`dashboard-attendant-${helperId}`);
    await helperRow.waitFor();
    expect(await helperRow.textContent()).toContain('2');
    // both charts drawn: the per-attendant bars and today's bars per hour
    for (const chart of ['chart-users', 'chart-day']) {
      await expect
        .poll(() => page.getByTestId(chart).locator('svg .MuiBarChart-element, svg .MuiBarElement-root').count(), {
          timeout: 30_000,
        })
        .toBeGreaterThan(0);
    }
    expect(await page.getByTestId('chart-day').textContent()).toContain('(4)');
    expect(await page.getByTestId('chart-users').textContent()).toContain('(2)');
    await screenshot(page, 'dashboard-dark');
    expectNoPageErrors(opened);
  });

  it('asks for a filter when none is set, and filters by period', async () => {
    const { page } = opened;
    await page.getByTestId('dashboard-from').fill('');
    await page.getByTestId('dashboard-to').fill('');
    await page.getByTestId('dashboard-filter').click();
    await page.getByText('Defina os parâmetros do filtro').first().waitFor();
    await page.getByTestId('dashboard-filter-type').click();
    await page.getByRole('option', { name: 'Filtro por período' }).click();
    await page.getByTestId('dashboard-period').click();
    await page.getByTestId('dashboard-period-7').click();
    await page.getByTestId('dashboard-filter').click();
    await expect.poll(() => counter(page, 'supportFinished').textContent()).toBe('2');
  });

  it('fits a phone (390 px)', async () => {
    const { page } = opened;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect.poll(() => counter(page, 'supportFinished').textContent(), { timeout: 30_000 }).toBe('2');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'dashboard-390');
    expectNoPageErrors(opened);
  });
});
