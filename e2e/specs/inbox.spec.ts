import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  pathOf,
  type TOpenedPage,
  screenshot,
  waitForPath,
  waitForSocketReady,
  waitForToast,
} from '../support/browser';
import {
  companyWithApiAdmin,
  customerOutbox,
  customerWrites,
  idOfTestId,
  openNewConnectionEditor,
  pngImage,
  shownAck,
  storedOwnMessage,
  ticketMessages,
  ticketRowOf,
  waitForOutboxMessage,
} from '../support/inbox';

/**
 * The whole attendance in Chromium, as issue 3 tells it: an admin pairs a sandbox connection from the QR modal,
 * a simulated customer writes, the ticket shows up in pending with badge and sound, the admin accepts and answers
 * with text, emoji and a picture, the customer gets them with ticks (read when the customer reads), the ticket is
 * transferred to a queue, accepted again and closed, and the customer's rating reply is captured.
 */

/** the notification volume chosen in the top bar (localStorage `volume`) before the app starts */
const VOLUME = '0.6';

/** Counts the oscillators the app starts (the notification chime is two), without hearing them. */
const spyOnChime = (page: Page) =>
  page.context().addInitScript(() => {
    const w = window as unknown as { __chimeTones: number };
    w.__chimeTones = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: Parameters<OscillatorNode['start']>) {
      w.__chimeTones += 1;

      return start.apply(this, args);
    };
  });

const chimeTones = (page: Page) => page.evaluate(() => (window as unknown as { __chimeTones: number }).__chimeTones);
const lastChimeVolume = (page: Page) => page.evaluate(() => document.documentElement.dataset.lastNotificationSound);
const countOf = async (badge: Locator) => Number(await badge.getAttribute('data-count'));

describe('inbox: sandbox connection, a customer and the whole attendance', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  /** a second admin of the company: the API side of the spec (the customer, the settings) */
  let token: string;
  let queue: { id: number; name: string };
  let connectionId = 0;
  let ticketId = 0;
  const id = unique();
  const connectionName = `Loja ${id}`;
  const ratingMessage = `Sua opinião importa ${id}`;
  const completionMessage = `Obrigado pelo contato ${id}!`;
  const customer = { number: `5511${String(Date.now()).slice(-9)}`, name: `Cliente ${id}` };
  const reply = 'Seu pedido saiu para entrega';

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Atendimento'));
    // the company's queue exists before the screens load (the transfer dialog lists the company's queues)
    queue = await apiCall<{ id: number; name: string }>('POST', '/queue', {
      token,
      body: { name: `Vendas ${id}`, color: '#7c4dff' },
    });
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await spyOnChime(opened.page);
    await opened.context.addInitScript((volume) => {
      if (window === window.top && localStorage.getItem('volume') === null) {
        localStorage.setItem('volume', volume);
      }
    }, VOLUME);
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('creates a sandbox connection in the editor, pairs it from the QR modal and shows it CONNECTED live', async () => {
    const { page } = opened;
    await waitForSocketReady(opened);
    const editor = await openNewConnectionEditor(page);
    await page.getByTestId('connection-name').fill(connectionName);
    // a new connection is a sandbox one unless another provider is picked
    expect(await page.getByTestId('connection-provider').inputValue()).toBe('sandbox');
    await page.getByTestId('connection-ratingMessage').fill(ratingMessage);
    await page.getByTestId('connection-complationMessage').fill(completionMessage);
    await page.getByTestId('connection-save').click();
    await waitForToast(page, 'success', 'Connection saved successfully!');
    await editor.waitFor({ state: 'detached' });

    const row = page.locator(`[data-testid^="connection-row-"][data-name="${connectionName}"]`);
    await row.waitFor();
    connectionId = await idOfTestId(row);
    // a page reload would drop this mark: everything below happens live
    await page.evaluate(() => {
      (window as unknown as { __samePage: boolean }).__samePage = true;
    });
    const status = page.getByTestId(`connection-status-${connectionId}`);
    await page.locator(`[data-testid="connection-status-${connectionId}"][data-status="qrcode"]`).waitFor();
    await screenshot(page, 'inbox-connections-qrcode-en-light');

    await page.getByTestId(`connection-qr-${connectionId}`).click();
    const qrDialog = page.getByTestId('qr-dialog');
    await qrDialog.getByTestId('qr-code').waitFor();
    await screenshot(page, 'inbox-qr-modal-en-light');
    await page.getByTestId('qr-scan-simulator').click();

    // the session update closes the modal and turns the row CONNECTED, with no reload
    await qrDialog.waitFor({ state: 'detached' });
    await page.locator(`[data-testid="connection-status-${connectionId}"][data-status="CONNECTED"]`).waitFor();
    expect((await status.textContent())?.trim()).toBe('Connected');
    await page.getByTestId(`connection-disconnect-${connectionId}`).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    await screenshot(page, 'inbox-connections-connected-en-light');
  });

  it('shows a customer message as a pending ticket with its count, the bell badge and the chime', async () => {
    const { page } = opened;
    await page.getByTestId('menu-tickets').click();
    await waitForPath(page, '/tickets');
    await page.getByTestId('tickets-subtab-pending').click();
    const pending = page.getByTestId('tickets-list-pending');
    const pendingCount = page.getByTestId('tickets-count-pending');
    const bell = page.getByTestId('notification-badge');
    await pending.waitFor();
    expect(await countOf(pendingCount)).toBe(0);
    expect(await countOf(bell)).toBe(0);
    const tonesBefore = await chimeTones(page);

    await customerWrites(token, connectionId, customer.number, customer.name, 'Oi, quero saber do meu pedido');

    const row = ticketRowOf(pending, customer.name);
    await row.waitFor();
    ticketId = await idOfTestId(row);
    expect(await row.getAttribute('data-status')).toBe('pending');
    await row.getByText('Oi, quero saber do meu pedido').waitFor();
    // the unread badge (a Badge without children: attached, not "visible" to Playwright)
    await expect
      .poll(() =>
        row
          .getByTestId(`ticket-unread-${ticketId}`)
          .textContent({ timeout: 1000 })
          .catch(() => null),
      )
      .toBe('1');
    await expect.poll(() => countOf(pendingCount)).toBe(1);
    await expect.poll(() => countOf(bell)).toBe(1);
    // the two-tone chime, at the volume chosen in the top bar
    await expect.poll(() => chimeTones(page)).toBeGreaterThanOrEqual(tonesBefore + 2);
    expect(await lastChimeVolume(page)).toBe(VOLUME);
    // a pending ticket does not open on a click (spec 1 §2): it must be accepted
    await row.click();
    expect(pathOf(page)).toBe('/tickets');
  });

  it('accepts the ticket, which opens the conversation', async () => {
    const { page } = opened;
    await page.getByTestId(`ticket-accept-${ticketId}`).click();
    const conversation = page.getByTestId('conversation');
    await conversation.waitFor();
    await page.waitForURL((url) => /^\/tickets\/[\w-]{8,}$/.test(url.pathname));
    await page.getByTestId('conversation-contact-name').filter({ hasText: customer.name }).waitFor();
    await conversation.getByText('Oi, quero saber do meu pedido').waitFor();
    // accepted: in the assigned list, out of pending, and read (the bell empties)
    await ticketRowOf(page.getByTestId('tickets-list-open'), customer.name).waitFor();
    await expect.poll(() => countOf(page.getByTestId('tickets-count-pending'))).toBe(0);
    await expect.poll(() => countOf(page.getByTestId('tickets-count-assigned'))).toBe(1);
    await expect.poll(() => countOf(page.getByTestId('notification-badge'))).toBe(0);
    expect(await page.getByTestId('composer-input').isEnabled()).toBe(true);
  });

  it('answers with text and an emoji (Enter) and with a picture; the customer gets both and the ticks turn read', async () => {
    const { page } = opened;
    const input = page.getByTestId('composer-input');
    await input.fill(`${reply} `);
    await page.getByTestId('composer-emoji').click();
    const emoji = page.getByTestId('emoji-option').first();
    const picked = (await emoji.textContent()) ?? '';
    expect(picked.length).toBeGreaterThan(0);
    await emoji.click();
    await page.keyboard.press('Escape');
    expect(await input.inputValue()).toBe(`${reply} ${picked}`);
    await input.press('Enter');
    expect(await input.inputValue()).toBe('');

    const text = await storedOwnMessage(page, `${reply} ${picked}`);
    // sent, then acknowledged by the network and the customer's phone
    await expect.poll(() => shownAck(page, text.id)).toBeGreaterThanOrEqual(2);

    const fileName = `comprovante-${id}.png`;
    const caption = `Comprovante ${id}`;
    await page.getByTestId('composer-file-input').setInputFiles({
      name: fileName,
      mimeType: 'image/png',
      buffer: pngImage(),
    });
    await page.getByTestId('attachments-preview').getByText(fileName).waitFor();
    await page.getByTestId('attachments-caption').fill(caption);
    await page.getByTestId('attachments-send').click();
    await page.getByTestId('attachments-preview').waitFor({ state: 'detached' });
    const picture = await storedOwnMessage(page, caption);
    await picture.bubble.getByTestId('message-image').waitFor();
    await expect.poll(() => shownAck(page, picture.id)).toBeGreaterThanOrEqual(2);

    // the customer's phone: the signed text with its emoji, then the picture
    const signedText = await waitForOutboxMessage(token, connectionId, customer.number, (m) =>
      m.body.includes(`${reply} ${picked}`),
    );
    expect(signedText.type).toBe('text');
    expect(signedText.body).toBe(`*${admin.companyName}:*\n${reply} ${picked}`);
    const media = await waitForOutboxMessage(token, connectionId, customer.number, (m) => m.type === 'media');
    expect(media.media?.mimetype).toBe('image/png');
    expect(media.media?.fileName).toBe(fileName);
    expect(media.media?.size).toBe(pngImage().length);
    expect(media.body).toBe(`*${admin.companyName}:*\n${caption}`);
    const received = await customerOutbox(token, connectionId, customer.number);
    const order = (externalId: string) => received.findIndex((m) => m.externalId === externalId);
    expect(order(signedText.externalId)).toBeLessThan(order(media.externalId));
    await screenshot(page, 'inbox-conversation-delivered-en-light');

    await apiCall('POST', `/sandbox/${connectionId}/read`, { token, body: { to: customer.number } });
    await expect.poll(() => shownAck(page, text.id)).toBe(4);
    await expect.poll(() => shownAck(page, picture.id)).toBe(4);
    expect(await page.getByTestId(`message-ack-${text.id}`).getAttribute('data-ticks')).toBe('read');
    expect((await customerOutbox(token, connectionId, customer.number)).every((m) => m.ack === 4)).toBe(true);
    await screenshot(page, 'inbox-conversation-read-en-light');
  });

  it('transfers the ticket to a queue of the connection: it leaves the assigned list for pending', async () => {
    const { page } = opened;
    await apiCall('PUT', `/whatsapp/${connectionId}`, { token, body: { queueIds: [queue.id] } });

    await page.getByTestId('ticket-transfer').click();
    const dialog = page.getByTestId('transfer-dialog');
    await dialog.waitFor();
    await page.getByTestId('transfer-queue').getByRole('combobox').click();
    await page.getByTestId(`transfer-queue-option-${queue.id}`).click();
    await page.getByTestId('transfer-confirm').click();
    await waitForToast(page, 'success', 'Ticket transferred');
    await dialog.waitFor({ state: 'detached' });
    await waitForPath(page, '/tickets');

    await page.getByTestId('tickets-subtab-assigned').click();
    const assigned = page.getByTestId('tickets-list-open');
    await assigned.waitFor();
    await ticketRowOf(assigned, customer.name).waitFor({ state: 'detached' });
    await expect.poll(() => countOf(page.getByTestId('tickets-count-assigned'))).toBe(0);
    await page.getByTestId('tickets-subtab-pending').click();
    const row = ticketRowOf(page.getByTestId('tickets-list-pending'), customer.name);
    await row.waitFor();
    // no user now, and the queue's chip
    await row.getByText(queue.name).waitFor();
    expect(await row.getAttribute('data-status')).toBe('pending');
  });

  it('accepts again and closes with rating on: the customer is asked, answers 3 and the reply is kept', async () => {
    const { page } = opened;
    await apiCall('PUT', '/settings/userRating', { token, body: { value: 'enabled' } });
    await page.getByTestId(`ticket-accept-${ticketId}`).click();
    await page.getByTestId('conversation').waitFor();
    await page.getByTestId('conversation-header').getByText(queue.name).waitFor();

    await page.getByTestId('ticket-resolve').click();
    await waitForPath(page, '/tickets');
    await page.getByTestId('tickets-tab-closed').click();
    const closedRow = ticketRowOf(page.getByTestId('tickets-list-closed'), customer.name);
    await closedRow.waitFor();
    expect(await closedRow.getAttribute('data-status')).toBe('closed');

    // the rating request: the connection's rating message and the 1–3 scale
    const prompt = await waitForOutboxMessage(token, connectionId, customer.number, (m) =>
      m.body.startsWith(ratingMessage),
    );
    expect(prompt.body).toMatch(/\*1\*.*\n.*\*2\*.*\n.*\*3\*/);
    expect((await customerOutbox(token, connectionId, customer.number)).some((m) => m.body === completionMessage)).toBe(
      false,
    );

    await customerWrites(token, connectionId, customer.number, customer.name, '3');

    // captured as the rating: then the completion message goes out
    await waitForOutboxMessage(token, connectionId, customer.number, (m) => m.body === completionMessage);
    // the reply is kept on the closed ticket, which stays closed; no new ticket was opened for it
    const stored = await ticketMessages(token, ticketId);
    expect(stored.filter((m) => !m.fromMe).map((m) => m.body)).toEqual(['Oi, quero saber do meu pedido', '3']);
    const ticket = await apiCall<{ status: string }>('GET', `/tickets/${ticketId}`, { token });
    expect(ticket.status).toBe('closed');
    const open = await apiCall<{ tickets: { id: number }[] }>('GET', '/tickets?status=pending&showAll=true', {
      token,
    });
    expect(open.tickets).toEqual([]);

    // what the attendant sees: the closed ticket's conversation with the rating reply and the thanks
    await closedRow.click();
    const conversation = page.getByTestId('conversation');
    await conversation.waitFor();
    await conversation.locator('[data-from-me="false"]').getByText('3', { exact: true }).waitFor();
    await conversation.getByText(completionMessage).waitFor();
    await page.getByTestId('conversation-header').getByTestId(`ticket-reopen-${ticketId}`).waitFor();
    expect(await page.getByTestId('composer-input').isDisabled()).toBe(true);
    await screenshot(page, 'inbox-closed-rated-en-light');
    expectNoPageErrors(opened);
  });
});
