import type { Browser, Locator, Page } from 'playwright-core';
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
  VIEWPORT,
  waitForPath,
  waitForSocketReady,
  waitForToast,
} from '../support/browser';
import {
  companyWithApiAdmin,
  createSandboxConnection,
  customerWrites,
  idOfTestId,
  pairSandbox,
  pngImage,
  ticketRowOf,
  waitForOutboxMessage,
} from '../support/inbox';

/**
 * Quick messages with a file (issue 11 item 4), in Chromium: the /quick-messages screen (validation, a PDF
 * attached in the dialog, live updates, search, replacing and removing a file, delete), then the composer's '/'
 * suggestions sending that PDF with the quick message's text as its caption, as the customer's phone receives it.
 */

type TQuick = { id: number; shortcode: string; message: string; mediaPath: string | null; mediaName: string | null };

/** a small PDF, enough for type detection and the customer's phone */
const pdf = (text: string) =>
  Buffer.from(`%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`);

const dialog = (page: Page) => page.getByRole('dialog');
const cells = async (row: Locator) => (await row.locator('td').allTextContents()).map((t) => t.trim());

describe('quick messages with a file, on their screen and in the composer', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  /** a second admin of the company, for the API side (the customer, the live update) */
  let token: string;
  let connectionId = 0;
  const id = unique();
  const quick = { shortcode: `precos${id}`, message: `Segue a nossa tabela de preços (${id})` };
  const file = { name: 'price list 2025.pdf', stored: 'price_list_2025.pdf', buffer: pdf(id) };
  const customer = { number: `5531${String(Date.now()).slice(-8)}7`, name: `Cliente ${id}` };
  const page = () => opened.page;
  const quickByShortcode = async (shortcode: string) =>
    (
      await apiCall<{ records: TQuick[] }>('GET', `/quick-messages?searchParam=${encodeURIComponent(shortcode)}`, {
        token,
      })
    ).records.find((q) => q.shortcode === shortcode);

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Respostas'));
    connectionId = await createSandboxConnection(token, `Loja ${id}`);
    await pairSandbox(token, connectionId);
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens /quick-messages from the side menu, empty', async () => {
    await page().getByTestId('menu-quick-messages').click();
    await waitForPath(page(), '/quick-messages');
    await page().getByRole('heading', { name: 'Quick replies', level: 1 }).waitFor();
    await page().getByText('No quick replies found').waitFor();
  });

  it('requires the shortcode, then saves one with a PDF attached in the dialog', async () => {
    await page().getByTestId('quick-messages-add').click();
    await dialog(page()).getByText('Add quick reply').waitFor();
    await page().getByTestId('quick-message-save').click();
    await dialog(page()).getByText('Required').waitFor();

    await page().getByTestId('quick-message-shortcode').fill(quick.shortcode);
    await page().getByTestId('quick-message-message').fill(quick.message);
    await page().getByTestId('quick-message-file-input').setInputFiles({
      name: file.name,
      mimeType: 'application/pdf',
      buffer: file.buffer,
    });
    expect(await page().getByTestId('quick-message-attachment').textContent()).toBe(file.name);
    await screenshot(page(), 'quick-messages-dialog-en-light');
    await page().getByTestId('quick-message-save').click();
    await waitForToast(page(), 'success', 'Quick reply saved!');
    await dialog(page()).waitFor({ state: 'detached' });

    const row = page().getByTestId(`quick-message-row-${quick.shortcode}`);
    await row.waitFor();
    expect(await cells(row)).toEqual(expect.arrayContaining([`/${quick.shortcode}`, quick.message, file.stored]));
    const stored = await quickByShortcode(quick.shortcode);
    expect(stored).toMatchObject({ message: quick.message, mediaName: file.stored });
    // the stored bytes are the chosen file's
    const served = await fetch(new URL(stored?.mediaPath ?? '', page().url()));
    expect(Buffer.from(await served.arrayBuffer())).toEqual(file.buffer);
  });

  it('shows another admin’s quick message live, finds it by search, replaces and removes its file', async () => {
    await waitForSocketReady(opened);
    const other = { shortcode: `horario${id}`, message: 'We open from 8 to 18.' };
    await apiCall('POST', '/quick-messages', { token, body: { ...other, geral: true } });
    const row = page().getByTestId(`quick-message-row-${other.shortcode}`);
    await row.waitFor();
    expect(await cells(row)).toEqual(expect.arrayContaining([`/${other.shortcode}`, 'No attachment']));

    await page().getByTestId('quick-messages-search').fill(other.shortcode.toUpperCase());
    await page().getByTestId(`quick-message-row-${quick.shortcode}`).waitFor({ state: 'detached' });
    expect(await page().locator('[data-testid^="quick-message-row-"]').count()).toBe(1);

    // attach a picture, then replace it by the dialog's button
    await page().getByTestId(`quick-message-edit-${other.shortcode}`).click();
    await dialog(page()).getByText('Edit quick reply').waitFor();
    await page().getByTestId('quick-message-file-input').setInputFiles({
      name: 'map.png',
      mimeType: 'image/png',
      buffer: pngImage(),
    });
    await page().getByTestId('quick-message-save').click();
    await waitForToast(page(), 'success', 'Quick reply saved!');
    await row.getByText('map.png').waitFor();
    const first = await quickByShortcode(other.shortcode);
    expect(first?.mediaName).toBe('map.png');

    await page().getByTestId(`quick-message-edit-${other.shortcode}`).click();
    expect(await page().getByTestId('quick-message-attachment').textContent()).toBe('map.png');
    await page()
      .getByTestId('quick-message-file-input')
      .setInputFiles({
        name: 'new map.png',
        mimeType: 'image/png',
        buffer: pngImage(48, 48),
      });
    await page().getByTestId('quick-message-save').click();
    await row.getByText('new_map.png').waitFor();
    const replaced = await quickByShortcode(other.shortcode);
    expect(replaced?.mediaPath).not.toBe(first?.mediaPath);
    // the earlier file is gone
    expect((await fetch(new URL(first?.mediaPath ?? '', page().url()))).status).toBe(404);

    // remove it: nothing attached once saved
    await page().getByTestId(`quick-message-edit-${other.shortcode}`).click();
    await page().getByTestId('quick-message-remove-attachment').click();
    await page().getByTestId('quick-message-attachment').waitFor({ state: 'detached' });
    await page().getByTestId('quick-message-save').click();
    await waitForToast(page(), 'success', 'Quick reply saved!');
    await row.getByText('No attachment').waitFor();
    expect(await quickByShortcode(other.shortcode)).toMatchObject({ mediaPath: null, mediaName: null });

    // delete it after the confirmation
    await page().getByTestId(`quick-message-delete-${other.shortcode}`).click();
    await page().getByTestId('confirm-ok').click();
    await waitForToast(page(), 'success', 'Quick reply deleted!');
    await row.waitFor({ state: 'detached' });
    await page().getByTestId('quick-messages-search').fill('');
    await page().getByTestId(`quick-message-row-${quick.shortcode}`).waitFor();
  });

  it('pictures the screen and its dialog in pt and en, light and dark, and on a 390 px phone', async () => {
    await inEachLook(page(), 'quick-messages', async ({ name, check }) => {
      await page().goto('/quick-messages');
      await page().getByTestId(`quick-message-row-${quick.shortcode}`).waitFor();
      await check();
      expect(await page().evaluate(() => document.body.innerText)).not.toMatch(/quickMessages\.\w/);
      await screenshot(page(), name('list'));
      await page().getByTestId(`quick-message-edit-${quick.shortcode}`).click();
      await page().getByTestId('quick-message-attachment').waitFor();
      expect(await page().getByTestId('quick-message-attachment').textContent()).toBe(file.stored);
      await check();
      await screenshot(page(), name('dialog'));
      await page().getByTestId('quick-message-cancel').click();
      await dialog(page()).waitFor({ state: 'detached' });
    });
    await page().evaluate(() => {
      localStorage.setItem('i18nextLng', 'en');
      localStorage.setItem('preferredTheme', 'light');
    });
    await page().setViewportSize({ width: 390, height: 844 });
    try {
      await page().goto('/quick-messages');
      const card = page().getByTestId(`quick-message-row-${quick.shortcode}`);
      await card.waitFor();
      await card.getByText(file.stored).waitFor();
      expect(await page().evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page(), 'quick-messages-phone-en-light');
      await page().getByTestId(`quick-message-edit-${quick.shortcode}`).click();
      await page().getByTestId('quick-message-attachment').waitFor();
      const box = await dialog(page()).boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(390);
      await screenshot(page(), 'quick-messages-phone-dialog-en-light');
      await page().getByTestId('quick-message-cancel').click();
    } finally {
      await page().setViewportSize(VIEWPORT);
    }
  });

  it("sends the PDF with the quick message's text when it is picked on '/' in a ticket's composer", async () => {
    const readiesBefore = opened.socketReadies();
    await page().goto('/tickets');
    // the new page's own realtime connection, not an earlier page's
    await waitForSocketReady(opened, readiesBefore);
    await customerWrites(token, connectionId, customer.number, customer.name, 'Quanto custa?');
    await page().getByTestId('tickets-subtab-pending').click();
    const ticketRow = ticketRowOf(page().getByTestId('tickets-list-pending'), customer.name);
    await ticketRow.waitFor();
    const ticketId = await idOfTestId(ticketRow);
    await page().getByTestId(`ticket-accept-${ticketId}`).click();
    await page().getByTestId('conversation').waitFor();

    const input = page().getByTestId('composer-input');
    await input.click();
    await input.pressSequentially(`/${quick.shortcode.slice(0, 8)}`);
    const suggestions = page().getByTestId('quick-answers');
    await suggestions.waitFor();
    const stored = await quickByShortcode(quick.shortcode);
    await page().getByTestId(`quick-answer-file-${stored?.id}`).waitFor();
    await screenshot(page(), 'quick-messages-composer-suggestions-en-light');
    await input.press('Enter');

    // the file comes into the attachments preview with the text as its caption
    const preview = page().getByTestId('attachments-preview');
    await preview.getByText(file.stored).waitFor();
    expect(await page().getByTestId('attachments-caption').inputValue()).toBe(quick.message);
    await screenshot(page(), 'quick-messages-composer-preview-en-light');
    await page().getByTestId('attachments-send').click();
    await preview.waitFor({ state: 'detached' });
    await page()
      .getByTestId('conversation')
      .locator('[data-from-me="true"]')
      .filter({ hasText: quick.message })
      .waitFor();

    // the customer's phone received the PDF with the text
    const received = await waitForOutboxMessage(token, connectionId, customer.number, (m) => m.type === 'media');
    expect(received.media).toMatchObject({
      mimetype: 'application/pdf',
      fileName: file.stored,
      size: file.buffer.length,
    });
    expect(received.body.endsWith(quick.message)).toBe(true);
    expectNoPageErrors(opened);
  });
});
