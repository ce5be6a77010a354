import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, unique } from '../support/api';
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
import {
  companyWithApiAdmin,
  createSandboxConnection,
  customerWrites,
  pairSandbox,
  ticketRowOf,
  until,
} from '../support/inbox';

/**
 * Fair automatic assignment in Chromium (issue 25 item 4): the admin switches it on in the queue dialog; an
 * agent with the app open gets a customer's ticket in its open list without accepting it; the agent pauses
 * itself from the account menu ("away"), the admin's users screen shows it live, the next ticket waits, and
 * it comes as soon as the agent resumes.
 */

type TTicket = { id: number; status: string; userId: number | null; contact: { number: string } };

describe('automatic assignment and the away switch', () => {
  let browser: Browser;
  let adminPage: TOpenedPage;
  let agentPage: TOpenedPage;
  let token: string;
  let connectionId = 0;
  let queueId = 0;
  const id = unique();
  const queueName = `Suporte ${id}`;
  const agent = { name: `Agente ${id}`, email: `agent-${id}@e2e.test`, password: 'Agent-Pass1', id: 0 };

  const ticketOf = async (number: string) =>
    (await apiCall<{ tickets: TTicket[] }>('GET', '/tickets?showAll=true', { token })).tickets.find(
      (t) => t.contact.number === number,
    );

  beforeAll(async () => {
    const company = await companyWithApiAdmin('Atribuicao');
    token = company.token;
    browser = await launchBrowser();
    adminPage = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(adminPage.page, company.admin.email, company.admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('switches automatic assignment on in the queue dialog, with its cap', async () => {
    const { page } = adminPage;
    await waitForSocketReady(adminPage);
    await page.getByTestId('menu-queues').click();
    await waitForPath(page, '/queues');
    await page.getByTestId('queues-add').click();
    await page.getByTestId('queue-name').fill(queueName);
    // off by default, and the cap shows only once it is on
    expect(await page.getByTestId('queue-auto-assign-switch').isChecked()).toBe(false);
    expect(await page.getByTestId('queue-auto-assign-max').count()).toBe(0);
    await page.getByTestId('queue-auto-assign-switch').check();
    expect(await page.getByTestId('queue-auto-assign-max').inputValue()).toBe('5');
    await page.getByTestId('queue-auto-assign-max').fill('0');
    await page.getByTestId('queue-save').click();
    await page.getByTestId('queue-auto-assign').getByText('Invalid value').waitFor();
    await page.getByTestId('queue-auto-assign-max').fill('2');
    await screenshot(page, 'assignment-queue-en-light');
    await page.getByTestId('queue-save').click();
    await waitForToast(page, 'success', 'Queue saved successfully!');
    await page.getByTestId(`queue-auto-${queueName}`).filter({ hasText: 'Automatic · 2' }).waitFor();
    const queues = await apiCall<{ id: number; name: string; autoAssign: boolean; autoAssignMax: number }[]>(
      'GET',
      '/queue',
      { token },
    );
    const saved = queues.find((q) => q.name === queueName)!;
    expect(saved).toMatchObject({ autoAssign: true, autoAssignMax: 2 });
    queueId = saved.id;
  });

  it("gives a customer's ticket to the agent whose app is open, in its open list", async () => {
    connectionId = await createSandboxConnection(token, `Central ${id}`, { queueIds: [queueId] });
    await pairSandbox(token, connectionId);
    agent.id = (
      await apiCall<{ id: number }>('POST', '/users', {
        token,
        body: { name: agent.name, email: agent.email, password: agent.password, profile: 'user', queueIds: [queueId] },
      })
    ).id;
    agentPage = await openPage(browser, { language: 'pt', theme: 'dark' });
    await loginThroughUi(agentPage.page, agent.email, agent.password);
    await waitForSocketReady(agentPage);
    const { page } = agentPage;
    await page.getByTestId('menu-tickets').click();
    await waitForPath(page, '/tickets');
    await page.getByTestId('own-presence').and(page.locator('[data-presence="available"]')).waitFor();

    const customer = { number: `5511${Date.now().toString().slice(-8)}`, name: `Cliente ${id}` };
    await customerWrites(token, connectionId, customer.number, customer.name, 'Preciso de ajuda');
    // nobody accepted it: it is the agent's, open, live in its list
    await page.getByTestId('tickets-subtab-assigned').click();
    await ticketRowOf(page.getByTestId('tickets-list-open'), customer.name).waitFor();
    const ticket = await ticketOf(customer.number);
    expect(ticket).toMatchObject({ status: 'open', userId: agent.id });
    await screenshot(page, 'assignment-agent-pt-dark');
  });

  it('pauses the agent from the account menu: colleagues see it, new tickets wait until it resumes', async () => {
    const { page } = agentPage;
    // the admin's users screen, live
    await adminPage.page.getByTestId('menu-users').click();
    await waitForPath(adminPage.page, '/users');
    const presence = adminPage.page.getByTestId(`user-presence-${agent.email}`);
    await presence.and(adminPage.page.locator('[data-presence="available"]')).waitFor();

    await page.getByTestId('account-menu').click();
    await page.getByTestId('away-toggle').click();
    await waitForToast(page, 'success', 'Você está ausente: nenhum ticket novo será atribuído a você.');
    await page.keyboard.press('Escape');
    await page.getByTestId('own-presence').and(page.locator('[data-presence="away"]')).waitFor();
    await presence.and(adminPage.page.locator('[data-presence="away"]')).waitFor();
    expect((await presence.locator('..').textContent())?.trim()).toBe('Away');

    const customer = { number: `5521${Date.now().toString().slice(-8)}`, name: `Espera ${id}` };
    await customerWrites(token, connectionId, customer.number, customer.name, 'Oi, tem alguém?');
    await until('the ticket in the queue', async () => (await ticketOf(customer.number))?.status === 'pending');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await ticketOf(customer.number)).toMatchObject({ status: 'pending', userId: null });

    await page.getByTestId('account-menu').click();
    expect(await page.getByTestId('away-switch').locator('input').isChecked()).toBe(true);
    await page.getByTestId('away-toggle').click();
    await waitForToast(page, 'success', 'Você está disponível para novos tickets.');
    await page.keyboard.press('Escape');
    await ticketRowOf(page.getByTestId('tickets-list-open'), customer.name).waitFor();
    expect(await ticketOf(customer.number)).toMatchObject({ status: 'open', userId: agent.id });
    await presence.and(adminPage.page.locator('[data-presence="available"]')).waitFor();
    expectNoPageErrors(agentPage);
    expectNoPageErrors(adminPage);
  });

  it('keeps the account menu usable on a 390 px phone', async () => {
    const { page } = agentPage;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('account-menu').click();
    const toggle = page.getByTestId('away-toggle');
    await toggle.waitFor();
    const box = await toggle.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await screenshot(page, 'assignment-away-390-pt-dark');
    await page.keyboard.press('Escape');
  });
});
