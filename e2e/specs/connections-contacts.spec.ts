import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  inEachLook,
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
  connectionState,
  createSandboxConnection,
  pairSandbox,
  storedOwnMessage,
  waitForConnectionStatus,
  waitForOutboxMessage,
} from '../support/inbox';

/**
 * The contacts page (create, search, CSV export, open a ticket), the customer simulator writing into that ticket,
 * and pictures of the inbox screens (connections, QR modal, simulator, conversation) in pt and en, light and dark.
 */

const rows = (page: Page) => page.locator('[data-testid^="contact-row-"]');

describe('contacts, the customer simulator and the inbox screens', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let connectionId = 0;
  let ticketUuid = '';
  const id = unique();
  const contact = {
    name: `Renata ${id}`,
    typedNumber: `+55 (21) 9${String(Date.now()).slice(-4)}-${String(Date.now()).slice(-8, -4)}`,
    email: `renata-${id}@e2e.test`,
  };
  const number = contact.typedNumber.replace(/\D/g, '');
  const agentText = `Olá Renata, em que posso ajudar? ${id}`;
  const customerText = `Quero trocar o tamanho do pedido ${id} 😀`;

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Contatos'));
    connectionId = await createSandboxConnection(token, `Central ${id}`);
    await pairSandbox(token, connectionId);
    // someone the search has to leave out
    await apiCall('POST', '/contacts', { token, body: { name: `Outro ${id}`, number: '5531988887777' } });
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('creates a contact through the dialog, with the number kept as digits', async () => {
    const { page } = opened;
    await waitForSocketReady(opened);
    await page.getByTestId('menu-contacts').click();
    await waitForPath(page, '/contacts');
    await rows(page).first().waitFor();

    await page.getByTestId('contacts-add').click();
    const dialog = page.getByTestId('contact-dialog');
    await page.getByTestId('contact-name').fill(contact.name);
    await page.getByTestId('contact-number').fill(contact.typedNumber);
    await page.getByTestId('contact-email').fill(contact.email);
    await page.getByTestId('contact-save').click();
    await waitForToast(page, 'success', 'Contact saved successfully!');
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByTestId(`contact-row-${number}`);
    await row.waitFor();
    expect((await row.locator('td').allTextContents()).slice(1, 4)).toEqual([contact.name, number, contact.email]);
    await page.getByTestId('contacts-count').filter({ hasText: '(2)' }).waitFor();
  });

  it('searches the list by name', async () => {
    const { page } = opened;
    await page.getByTestId('contacts-search').fill(`renata ${id}`);
    // debounced: then only the match is left (a search shows no count: the server does not count searches)
    await page.getByTestId('contacts-count').waitFor({ state: 'detached' });
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.getByTestId(`contact-row-${number}`).waitFor();
  });

  it('exports the searched contacts as a semicolon CSV', async () => {
    const { page } = opened;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('contacts-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toBe('name;number;email');
    expect(lines.slice(1)).toEqual([`${contact.name};${number};${contact.email}`]);
  });

  it('opens a ticket from the contact and lands on its conversation', async () => {
    const { page } = opened;
    await page.getByTestId(`contact-ticket-${number}`).click();
    const dialog = page.getByTestId('contact-ticket-dialog');
    await dialog.getByText(contact.name).first().waitFor();
    // the company's only connection is offered
    expect(await page.getByTestId('contact-ticket-connection').inputValue()).toBe(String(connectionId));
    await page.getByTestId('contact-ticket-open').click();
    await dialog.waitFor({ state: 'detached' });

    await page.waitForURL((url) => /^\/tickets\/[\w-]{8,}$/.test(url.pathname));
    ticketUuid = new URL(page.url()).pathname.split('/').pop() ?? '';
    const ticket = await apiCall<{ status: string; contact: { name: string; number: string } }>(
      'GET',
      `/tickets/u/${ticketUuid}`,
      { token },
    );
    expect(ticket).toMatchObject({ status: 'open', contact: { name: contact.name, number } });
    await page.getByTestId('conversation-contact-name').filter({ hasText: contact.name }).waitFor();

    // the attendant writes first
    await page.getByTestId('composer-input').fill(agentText);
    await page.getByTestId('composer-input').press('Enter');
    await storedOwnMessage(page, agentText);
    await waitForOutboxMessage(token, connectionId, number, (m) => m.body.endsWith(agentText));
  });

  it('plays the customer in the simulator: the reply arrives with ticks and the answer lands in the ticket', async () => {
    const { page } = opened;
    await page.getByTestId('menu-simulator').click();
    await waitForPath(page, '/simulator');
    await page.getByTestId('sim-connection').selectOption(String(connectionId));
    await page.locator('[data-testid="sim-connection-status"][data-status="CONNECTED"]').waitFor();
    await page.getByTestId('sim-number').fill(number);
    await page.getByTestId('sim-name').fill(contact.name);
    await page.getByTestId('sim-add-customer').click();
    await page.getByTestId('sim-current-name').filter({ hasText: contact.name }).waitFor();
    const messages = page.getByTestId('sim-messages');
    await messages.getByText(agentText).waitFor();

    await page.getByTestId('sim-input').fill(customerText);
    await page.getByTestId('sim-send').click();
    await messages.getByText(customerText).waitFor();

    // the attendant's open conversation gets it live
    await page.goto(`/tickets/${ticketUuid}`);
    await page.getByTestId('conversation').getByText(customerText).waitFor();
    expectNoPageErrors(opened);
  });

  it('pictures connections, the QR modal, the simulator and a conversation in pt and en, light and dark', async () => {
    const { page } = opened;
    // a second connection waiting for its QR code
    const qrId = await createSandboxConnection(token, `Filial ${id}`);
    await inEachLook(page, 'inbox', async ({ name, check }) => {
      // a QR code lives 20 s and three of them a minute: ask for a new one when it ran out
      if ((await connectionState(token, qrId)).status !== 'qrcode') {
        await apiCall('PUT', `/whatsappsession/${qrId}`, { token });
        await waitForConnectionStatus(token, qrId, 'qrcode');
      }
      await page.goto('/connections');
      await page.locator(`[data-testid="connection-status-${connectionId}"][data-status="CONNECTED"]`).waitFor();
      await page.getByTestId(`connection-qr-${qrId}`).waitFor();
      await check();
      await screenshot(page, name('connections'));
      await page.getByTestId(`connection-qr-${qrId}`).click();
      await page.getByTestId('qr-code').waitFor();
      await check();
      await screenshot(page, name('qr-modal'));
      await page.getByTestId('qr-close').click();
      await page.getByTestId('qr-dialog').waitFor({ state: 'detached' });

      await page.goto('/simulator');
      await page.getByTestId(`sim-customer-${number}`).click();
      await page.getByTestId('sim-messages').getByText(customerText).waitFor();
      await check();
      await screenshot(page, name('simulator'));

      await page.goto(`/tickets/${ticketUuid}`);
      await page.getByTestId('conversation').getByText(customerText).waitFor();
      await check();
      await screenshot(page, name('conversation'));
    });
    expectNoPageErrors(opened);
  });
});
