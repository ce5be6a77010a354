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
  VIEWPORT,
  waitForPath,
  waitForSocketReady,
  waitForToast,
} from '../support/browser';
import { companyWithApiAdmin, createSandboxConnection, pairSandbox } from '../support/inbox';

/**
 * Contact lists (issue 12 item 2), in Chromium: a list created in its dialog, an .xlsx built here with exceljs
 * imported with the progress bar, the counts and the refused rows with their row numbers, the contacts with
 * their WhatsApp validity filled in live by the company's sandbox connection, and a legacy .xls turned away.
 */

type TItem = { id: number; name: string; number: string; isWhatsappValid: boolean | null };

const xlsx = async (rows: unknown[][]) => {
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);

  return Buffer.from(await workbook.xlsx.writeBuffer());
};

const dialog = (page: Page) => page.getByRole('dialog');

describe('contact lists: create a list, import a spreadsheet, see the contacts and the refused rows', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  const id = unique();
  const listName = `Clientes ${id}`;
  const base = String(Date.now()).slice(-7);
  const good = [
    ['Maria Planilha', `551198${base}1`, 'maria@example.com'],
    ['João Planilha', `551198${base}2`, ''],
    // the sandbox: numbers starting with 000 are not WhatsApp accounts
    ['Sem WhatsApp', `000198${base}3`, ''],
  ];
  const page = () => opened.page;
  let listId = 0;

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Listas'));
    const connectionId = await createSandboxConnection(token, `Loja ${id}`);
    await pairSandbox(token, connectionId);
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens /contact-lists from the side menu and creates a list in its dialog', async () => {
    await page().getByTestId('menu-contact-lists').click();
    await waitForPath(page(), '/contact-lists');
    await page().getByText('No contact lists').waitFor();
    await page().getByTestId('contact-lists-add').click();
    await dialog(page()).getByText('New contact list').waitFor();
    await page().getByTestId('contact-list-name').fill('A');
    await page().getByTestId('contact-list-save').click();
    await dialog(page()).getByText('Too Short!').waitFor();
    await page().getByTestId('contact-list-name').fill(listName);
    await page().getByTestId('contact-list-save').click();
    await waitForToast(page(), 'success', 'List saved successfully!');
    await page().getByTestId(`contact-list-row-${listName}`).waitFor();
    expect(await page().getByTestId(`contact-list-count-${listName}`).textContent()).toBe('0');
    const lists = await apiCall<{ records: { id: number; name: string }[] }>('GET', '/contact-lists', { token });
    listId = lists.records.find((l) => l.name === listName)?.id ?? 0;
    expect(listId).toBeGreaterThan(0);
  });

  it('imports an .xlsx from the row’s import action: counts, refused rows with their row numbers, then the contacts', async () => {
    await waitForSocketReady(opened);
    await page().getByTestId(`contact-list-import-${listName}`).click();
    await waitForPath(page(), `/contact-lists/${listId}/contacts`);
    await dialog(page()).getByText('Import contacts from a spreadsheet').waitFor();
    expect(await page().getByTestId('contact-list-import-template').getAttribute('href')).toMatch(/^data:text\/csv/);
    const file = await xlsx([
      ['Nome', 'Número', 'E-mail'],
      good[0],
      ['X', '5511980000009', ''],
      good[1],
      ['Email Ruim', '5511980000008', 'ruim@'],
      good[2],
    ]);
    await page().getByTestId('contact-list-import-file').setInputFiles({
      name: 'contatos.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: file,
    });
    expect(await page().getByTestId('contact-list-import-filename').textContent()).toBe('contatos.xlsx');
    await page().getByTestId('contact-list-import-start').click();
    const result = page().getByTestId('contact-list-import-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('5 row(s) read: 3 new, 0 updated, 2 with errors.');
    expect(await page().getByTestId('import-error-row-3').textContent()).toBe('Row 3Name: Too Short!');
    expect(await page().getByTestId('import-error-row-5').textContent()).toBe('Row 5E-mail: Invalid email');
    await screenshot(page(), 'contact-lists-import-result-en-light');
    await page().getByTestId('contact-list-import-done').click();
    await dialog(page()).waitFor({ state: 'detached' });
    await page().getByTestId('contact-list-title').getByText(listName).waitFor();

    for (const [, number] of good) await page().getByTestId(`contact-list-item-row-${number}`).waitFor();
    // the sandbox checks the numbers in the background; the chips change live
    await page().getByTestId(`validity-${good[0][1]}`).and(page().locator('[data-state="true"]')).waitFor();
    await page().getByTestId(`validity-${good[1][1]}`).and(page().locator('[data-state="true"]')).waitFor();
    await page().getByTestId(`validity-${good[2][1]}`).and(page().locator('[data-state="false"]')).waitFor();
    expect(await page().getByTestId(`validity-${good[2][1]}`).textContent()).toBe('Invalid');
    const stored = await apiCall<{ contacts: TItem[] }>('GET', `/contact-list-items?contactListId=${listId}`, {
      token,
    });
    expect(stored.contacts.map((c) => [c.name, c.isWhatsappValid])).toEqual([
      ['João Planilha', true],
      ['Maria Planilha', true],
      ['Sem WhatsApp', false],
    ]);
    await screenshot(page(), 'contact-list-items-en-light');
  });

  it('adds a contact in the dialog, and the list count follows', async () => {
    await page().getByTestId('contact-list-items-add').click();
    await page().getByTestId('contact-list-item-name').fill('Ana Manual');
    await page().getByTestId('contact-list-item-number').fill(`+55 (11) 97${base}-4`);
    await page().getByTestId('contact-list-item-save').click();
    await waitForToast(page(), 'success', 'Contact saved successfully!');
    const number = `551197${base}4`;
    await page().getByTestId(`validity-${number}`).and(page().locator('[data-state="true"]')).waitFor();
    const list = await apiCall<{ contactsCount: number; validCount: number }>('GET', `/contact-lists/${listId}`, {
      token,
    });
    expect(list).toMatchObject({ contactsCount: 4, validCount: 3 });
  });

  it('turns a legacy .xls away with the advice to save it as .xlsx', async () => {
    await page().getByTestId('contact-list-items-import').click();
    await page()
      .getByTestId('contact-list-import-file')
      .setInputFiles({
        name: 'antiga.xls',
        mimeType: 'application/vnd.ms-excel',
        buffer: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      });
    expect(await page().getByTestId('contact-list-import-failure').textContent()).toMatch(
      /save the spreadsheet as \.xlsx/,
    );
    expect(await page().getByTestId('contact-list-import-start').isDisabled()).toBe(true);
    await page().keyboard.press('Escape');
    await dialog(page()).waitFor({ state: 'detached' });
  });

  it('fits a 390 px phone in Portuguese and the dark theme', async () => {
    await page().evaluate(() => {
      localStorage.setItem('i18nextLng', 'pt');
      localStorage.setItem('preferredTheme', 'dark');
    });
    await page().setViewportSize({ width: 390, height: 844 });
    await page().reload();
    // a reload on a busy machine: the bundle, the session refresh and the list take their time
    await page()
      .getByTestId('contact-list-title')
      .filter({ hasText: `Contatos da lista ${listName}` })
      .waitFor({ timeout: 60_000 });
    await page().getByText('Inválido').waitFor({ timeout: 30_000 });
    const width = await page().evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page(), 'contact-list-items-pt-dark-390');
    await page().setViewportSize(VIEWPORT);
    expectNoPageErrors(opened);
  });
});
