import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUpCompany, type TCompanyAdmin, unique } from '../support/api';
import {
  bodyBackground,
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

/** a 1×1 PNG */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const badgeCount = async (page: Page) =>
  Number(await page.getByTestId('announcements-badge').getAttribute('data-count'));

/** opens the top bar's popover and closes it again: what it lists is seen */
const openAndClosePopover = async (page: Page) => {
  await page.getByTestId('announcements').click();
  await page.locator('[data-testid="announcements-list"], [data-testid="announcements-empty"]').first().waitFor();
  await page.keyboard.press('Escape');
  await page.getByTestId('announcements-list').waitFor({ state: 'detached' });
};

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

describe('announcements: the super user publishes, a company admin sees it live', () => {
  let browser: Browser;
  let superTab: TOpenedPage;
  let adminTab: TOpenedPage;
  let admin: TCompanyAdmin;
  const id = unique();
  const notice = { title: `Manutenção ${id}`, text: `O sistema para domingo às 22h. ${id}` };

  beforeAll(async () => {
    admin = await signUpCompany('Avisos');
    browser = await launchBrowser();
    superTab = await openPage(browser, { language: 'en', theme: 'light' });
    adminTab = await openPage(browser, { language: 'pt', theme: 'dark' });
    await loginThroughUi(superTab.page, inject('superEmail'), inject('superPassword'));
    await loginThroughUi(adminTab.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends a company admin who opens /announcements back to / with an info toast', async () => {
    const { page } = adminTab;
    await waitForSocketReady(adminTab);
    await page.goto('/announcements');
    await waitForToast(page, 'info', 'Esta página é só para o super usuário. Estamos lhe redirecionando.');
    await waitForPath(page, '/');
    expect(await page.getByTestId('announcements-add').count()).toBe(0);
    await page.getByTestId('greeting').waitFor();
    await waitForSocketReady(adminTab);
  });

  it('the super user creates an announcement with a high priority and an image on /announcements', async () => {
    // what other specs published is seen first, so the badge counts only what comes next
    await openAndClosePopover(adminTab.page);
    await expect.poll(() => badgeCount(adminTab.page)).toBe(0);

    const { page } = superTab;
    await page.getByTestId('menu-announcements').click();
    await waitForPath(page, '/announcements');
    await page.getByRole('heading', { name: 'Announcements', level: 1 }).waitFor();
    await page.getByTestId('announcements-add').click();
    // validation first: title and text are required
    await page.getByTestId('announcement-save').click();
    expect(await page.getByRole('dialog').getByText('Required').count()).toBeGreaterThanOrEqual(2);

    await page.getByTestId('announcement-title').fill(notice.title);
    await page.getByTestId('announcement-text').fill(notice.text);
    await page.getByTestId('announcement-priority').selectOption('1');
    // a file that is not png/jpeg is refused in the dialog
    await page.getByTestId('announcement-file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await page.getByTestId('announcement-image-error').waitFor();
    await page
      .getByTestId('announcement-file')
      .setInputFiles({ name: 'poster.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('announcement-preview').waitFor();
    await screenshot(page, 'announcement-dialog-en-light');
    await page.getByTestId('announcement-save').click();
    await waitForToast(page, 'success', 'Announcement saved');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    const row = page.locator('[data-testid^="announcement-row-"]').filter({ hasText: notice.title });
    await row.waitFor();
    await row.getByTestId('priority-1').waitFor();
    await row.getByText('Active').waitFor();
    // the image is stored and shown
    await expect.poll(() => row.locator('img').count()).toBe(1);
    await screenshot(page, 'announcements-en-light');

    // on a 390 px phone each announcement is a card, and nothing scrolls sideways
    await page.setViewportSize({ width: 390, height: 800 });
    await row.waitFor();
    // the table turns into cards on the render after the resize: ask until that render has landed
    await expect.poll(() => noHorizontalScroll(page)).toBe(true);
    await screenshot(page, 'announcements-en-light-390');
    await page.setViewportSize({ width: 1366, height: 800 });
    expectNoPageErrors(superTab);
  });

  it("the company admin's badge counts it live; the popover shows it and opening it marks it read", async () => {
    const { page } = adminTab;
    await expect.poll(() => badgeCount(page), { timeout: 10_000 }).toBe(1);
    await page.getByTestId('announcements').click();
    const item = page.locator('[data-testid^="announcement-item-"]').filter({ hasText: notice.title });
    await item.waitFor();
    expect(await item.textContent()).toContain(notice.text);
    expect(await item.locator('img').count()).toBe(1);
    // high priority: a red left border
    const border = await item.evaluate((el) => getComputedStyle(el).borderLeftColor);
    const [r, g, b] = (border.match(/\d+/g) ?? []).map(Number);
    expect(r, border).toBeGreaterThan(150);
    expect(g, border).toBeLessThan(120);
    expect(b, border).toBeLessThan(120);
    await screenshot(page, 'announcements-popover-pt-dark');
    await expect.poll(() => badgeCount(page)).toBe(0);

    // the whole announcement in its dialog
    await item.click();
    const view = page.getByTestId('announcement-view');
    await view.getByText(notice.text).waitFor();
    await view.getByRole('button').click();
    await view.waitFor({ state: 'detached' });

    // read stays read after a reload (and the reloaded page's own realtime connection is ready before the next
    // step's edit, or its event could land before the page listens)
    const readiesBefore = adminTab.socketReadies();
    await page.reload();
    await page.getByTestId('greeting').waitFor();
    await waitForSocketReady(adminTab, readiesBefore);
    expect(await badgeCount(page)).toBe(0);
  });

  it('an edit makes it unread again; made inactive it leaves the popover live', async () => {
    const { page } = superTab;
    const row = page.locator('[data-testid^="announcement-row-"]').filter({ hasText: notice.title });
    await row.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByTestId('announcement-title').inputValue()).toBe(notice.title);
    await page.getByTestId('announcement-text').fill(`${notice.text} (updated)`);
    await page.getByTestId('announcement-save').click();
    await waitForToast(page, 'success', 'Announcement saved');
    await expect.poll(() => badgeCount(adminTab.page), { timeout: 10_000 }).toBe(1);

    await row.getByRole('button', { name: 'Edit' }).click();
    await page.getByTestId('announcement-status').uncheck();
    await page.getByTestId('announcement-remove-image').click();
    await page.getByTestId('announcement-save').click();
    await waitForToast(page, 'success', 'Announcement saved');
    await row.getByText('Inactive').waitFor();
    await expect.poll(() => row.locator('img').count()).toBe(0);

    await expect.poll(() => badgeCount(adminTab.page), { timeout: 10_000 }).toBe(0);
    await adminTab.page.getByTestId('announcements').click();
    await adminTab.page
      .locator('[data-testid="announcements-list"], [data-testid="announcements-empty"]')
      .first()
      .waitFor();
    expect(
      await adminTab.page.locator('[data-testid^="announcement-item-"]').filter({ hasText: notice.title }).count(),
    ).toBe(0);
    await adminTab.page.keyboard.press('Escape');
  });

  it('the super user deletes it after confirming', async () => {
    const { page } = superTab;
    const row = page.locator('[data-testid^="announcement-row-"]').filter({ hasText: notice.title });
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await waitForToast(page, 'success', 'Announcement deleted');
    await row.waitFor({ state: 'detached' });
    expectNoPageErrors(superTab);
    expectNoPageErrors(adminTab);
  });
});

describe('to-do list', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;

  beforeAll(async () => {
    admin = await signUpCompany('Tarefas');
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const texts = (page: Page) => page.getByTestId('todo-text').allTextContents();

  it('adds, edits and deletes tasks, and keeps them after a reload', async () => {
    const { page } = opened;
    await page.getByTestId('menu-todolist').click();
    await waitForPath(page, '/todolist');
    await page.getByTestId('todo-empty').waitFor();
    // a blank task cannot be added
    await page.getByTestId('todo-input').fill('   ');
    expect(await page.getByTestId('todo-submit').isDisabled()).toBe(true);

    await page.getByTestId('todo-input').fill('Call the supplier');
    await page.getByTestId('todo-submit').click();
    await page.getByTestId('todo-input').fill('Send the invoice');
    await page.getByTestId('todo-input').press('Enter');
    await expect.poll(() => texts(page)).toEqual(['Call the supplier', 'Send the invoice']);
    await page
      .getByTestId('todo-item-0')
      .getByText(/^Created \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)
      .waitFor();

    await page.getByTestId('todo-edit-1').click();
    expect(await page.getByTestId('todo-input').inputValue()).toBe('Send the invoice');
    await page.getByTestId('todo-input').fill('Send the invoice to Ana');
    await page.getByTestId('todo-submit').click();
    await expect.poll(() => texts(page)).toEqual(['Call the supplier', 'Send the invoice to Ana']);

    await page.getByTestId('todo-delete-0').click();
    await expect.poll(() => texts(page)).toEqual(['Send the invoice to Ana']);

    await page.reload();
    await page.getByTestId('todo-list').waitFor();
    expect(await texts(page)).toEqual(['Send the invoice to Ana']);
    await screenshot(page, 'todolist-en-light');
  });

  it('fits a 390 px phone in dark mode, and another user of the same browser has their own list', async () => {
    const { page } = opened;
    await page.evaluate(() => localStorage.setItem('preferredTheme', 'dark'));
    await page.setViewportSize({ width: 390, height: 800 });
    await page.reload();
    await page.getByTestId('todo-list').waitFor();
    expect(await bodyBackground(page)).toBe('rgb(18, 20, 23)');
    expect(await noHorizontalScroll(page)).toBe(true);
    await screenshot(page, 'todolist-en-dark-390');

    // the super user, signed in in this browser, does not see the admin's tasks
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.getByTestId('account-menu').click();
    await page.getByTestId('logout').click();
    await waitForPath(page, '/login');
    await loginThroughUi(page, inject('superEmail'), inject('superPassword'));
    await page.goto('/todolist');
    await page.getByTestId('todo-empty').waitFor();
    expectNoPageErrors(opened);
  });
});
