import { randomBytes } from 'node:crypto';
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
  VIEWPORT,
  waitForPath,
  waitForToast,
} from '../support/browser';
import {
  companyWithApiAdmin,
  createSandboxConnection,
  pairSandbox,
  pngImage,
  ticketMessages,
  waitForOutboxMessage,
} from '../support/inbox';

/**
 * File lists and the external messages API (issue 12 items 3 and 7), in Chromium: a file list with two files
 * made in the /files dialog (stored typed by content), then a message sent with the /messages-api page's
 * "try it" form through a connection's token, received by the simulated customer and shown in the ticket.
 */

type TFileList = { id: number; name: string; options: { name: string; path: string; mediaType: string }[] };

const pdf = (text: string) =>
  Buffer.from(`%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`);
const dialog = (page: Page) => page.getByRole('dialog');

describe('file lists and the messages API page', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let connectionId = 0;
  const id = unique();
  const listName = `Catálogo ${id}`;
  // as strong as a generated token (issue 20): a weak one is refused
  const apiToken = `e2e-${id}-${randomBytes(18).toString('base64url')}`;
  const customer = `5531${String(Date.now()).slice(-8)}3`;
  const page = () => opened.page;

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Arquivos'));
    connectionId = await createSandboxConnection(token, `Loja ${id}`, { token: apiToken });
    await pairSandbox(token, connectionId);
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('creates a file list with two files in the dialog, each stored and typed by its content', async () => {
    await page().getByTestId('menu-files').click();
    await waitForPath(page(), '/files');
    await page().getByText('No file lists found').waitFor();
    await page().getByTestId('files-add').click();
    await dialog(page()).getByText('Add file list').waitFor();
    // name of 3 or more and a message are required
    await page().getByTestId('file-list-name').fill('ab');
    await page().getByTestId('file-list-save').click();
    await dialog(page()).getByText('Required').waitFor();

    await page().getByTestId('file-list-name').fill(listName);
    await page().getByTestId('file-list-message').fill('Here is our catalogue and logo');
    await page()
      .getByTestId('file-row-input-0')
      .setInputFiles({
        name: 'catalogue.pdf',
        mimeType: 'application/pdf',
        buffer: pdf(id),
      });
    expect(await page().getByTestId('file-row-name-0').inputValue()).toBe('catalogue.pdf');
    await page().getByTestId('file-row-name-0').fill('Catalogue');
    await page().getByTestId('file-list-add-row').click();
    // a PNG the browser labels as something else: the server types it by its bytes
    await page().getByTestId('file-row-input-1').setInputFiles({
      name: 'logo.bin',
      mimeType: 'application/octet-stream',
      buffer: pngImage(),
    });
    await page().getByTestId('file-row-name-1').fill('Logo');
    await screenshot(page(), 'files-dialog-en-light');
    await page().getByTestId('file-list-save').click();
    await waitForToast(page(), 'success', 'File list saved!');
    await dialog(page()).waitFor({ state: 'detached' });

    const row = page().getByTestId(`file-list-row-${listName}`);
    await row.waitFor();
    await row.getByText('2 files').waitFor();
    const { files } = await apiCall<{ files: TFileList[] }>(
      'GET',
      `/files?searchParam=${encodeURIComponent(listName)}`,
      { token },
    );
    expect(files).toHaveLength(1);
    expect(files[0].options.map((o) => [o.name, o.mediaType])).toEqual([
      ['Catalogue', 'application/pdf'],
      ['Logo', 'image/png'],
    ]);
    expect(files[0].options.every((o) => /^[0-9a-f]{32}\.(pdf|png)$/.test(o.path))).toBe(true);

    // the edit dialog shows the stored files
    await page().getByTestId(`file-list-edit-${listName}`).click();
    await page().getByTestId('file-row-file-0').getByText('Stored file (application/pdf)').waitFor();
    await page().getByTestId('file-row-file-1').getByText('Stored file (image/png)').waitFor();
    await page().getByTestId('file-list-cancel').click();
    expectNoPageErrors(opened);
  });

  it("sends a message with the messages-API page's try-it form: the customer receives it and it is in the ticket", async () => {
    await page().getByTestId('menu-messages-api').click();
    await waitForPath(page(), '/messages-api');
    await page().getByTestId(`messages-api-token-${connectionId}`).waitFor();
    // masked until revealed
    expect(await page().getByTestId(`messages-api-token-${connectionId}`).textContent()).not.toContain(apiToken);
    expect(await page().getByTestId('messages-api-curl-json').textContent()).not.toContain(apiToken);
    await page().getByTestId(`messages-api-reveal-${connectionId}`).click();
    await page().getByTestId(`messages-api-token-${connectionId}`).getByText(apiToken).waitFor();
    expect(await page().getByTestId('messages-api-curl-json').textContent()).toContain(`Bearer ${apiToken}`);

    const text = `Your order ${id} has shipped`;
    await page().getByTestId('messages-api-number').fill(customer);
    await page().getByTestId('messages-api-body').fill(text);
    await page().getByTestId('messages-api-send').click();
    await waitForToast(page(), 'success', 'Message sent!');
    const answerText = (await page().getByTestId('messages-api-answer').textContent()) ?? '';
    const answer = JSON.parse(answerText) as { mensagem: string; ticketId: number; messageId: number };
    expect(answer.mensagem).toBe('Mensagem enviada');
    await screenshot(page(), 'messages-api-answer-en-light');

    await waitForOutboxMessage(token, connectionId, customer, (m) => m.body === text);
    const stored = await ticketMessages(token, answer.ticketId);
    expect(stored.map((m) => m.body)).toContain(text);

    // the simulator shows what the customer received
    await page().getByTestId('menu-simulator').click();
    await waitForPath(page(), '/simulator');
    await page().getByTestId('sim-connection').selectOption(String(connectionId));
    await page().getByTestId('sim-number').fill(customer);
    await page().getByTestId('sim-name').fill('API customer');
    await page().getByTestId('sim-add-customer').click();
    await page().getByTestId('sim-messages').locator('[data-direction="received"]').filter({ hasText: text }).waitFor();

    // and the ticket's conversation shows it
    const ticket = await apiCall<{ uuid: string }>('GET', `/tickets/${answer.ticketId}`, { token });
    await page().goto(`/tickets/${ticket.uuid}`);
    await page().getByTestId(`message-${answer.messageId}`).getByText(text).waitFor();
    expectNoPageErrors(opened);
  });

  it('pictures both screens in pt and en, light and dark, and on a 390 px phone', async () => {
    await inEachLook(page(), 'files-messages-api', async ({ name, check }) => {
      await page().goto('/files');
      await page().getByTestId(`file-list-row-${listName}`).waitFor();
      await check();
      await screenshot(page(), name('files'));
      await page().goto('/messages-api');
      await page().getByTestId(`messages-api-token-${connectionId}`).waitFor();
      await check();
      await screenshot(page(), name('messages-api'));
    });
    await page().setViewportSize({ width: 390, height: 844 });
    try {
      await page().goto('/files');
      await page().getByTestId(`file-list-row-${listName}`).waitFor();
      const overflow = await page().evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(overflow).toBe(false);
      await screenshot(page(), 'files-390');
      await page().goto('/messages-api');
      await page().getByTestId(`messages-api-token-${connectionId}`).waitFor();
      expect(await page().evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await screenshot(page(), 'messages-api-390');
    } finally {
      await page().setViewportSize(VIEWPORT);
    }
    expectNoPageErrors(opened);
    // eight looks and two phone screens: more than one test's usual time on a shared machine
  }, 240_000);
});
