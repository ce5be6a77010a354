import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type TCompanyAdmin, unique } from '../support/api';
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

/** The text of each cell of a table row. */
const cells = async (row: Locator) => (await row.locator('td').allTextContents()).map((t) => t.trim());

const dialog = (page: Page) => page.getByRole('dialog');

describe('users page (company admin)', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  const id = unique();
  const user = { name: `Maria ${id}`, email: `maria-${id}@e2e.test`, password: 'maria-pass' };
  const renamed = `Mariana ${id}`;

  beforeAll(async () => {
    admin = await signUpCompany('Usuarios');
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens /users from the side menu and lists the admin', async () => {
    const { page } = opened;
    await page.getByTestId('menu-users').click();
    await waitForPath(page, '/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const adminRow = page.getByTestId(`user-row-${admin.email}`);
    await adminRow.waitFor();
    expect(await cells(adminRow)).toEqual(expect.arrayContaining([admin.companyName, admin.email, 'Admin']));
  });

  it('shows translated validation errors for a too-short name and an invalid e-mail', async () => {
    const { page } = opened;
    await page.getByTestId('users-add').click();
    await dialog(page).getByText('Add user').first().waitFor();
    await page.getByTestId('user-name').fill('A');
    await page.getByTestId('user-email').fill('not-an-email');
    await page.getByTestId('user-password').fill('secret1');
    await page.getByTestId('user-save').click();

    await dialog(page).getByText('Too Short!').waitFor();
    await dialog(page).getByText('Invalid email').waitFor();
    expect(
      await dialog(page)
        .getByText(/tooShort|invalidEmail|validation\./)
        .count(),
    ).toBe(0);
    await screenshot(page, 'users-validation-en-light');
    await page.getByTestId('user-cancel').click();
    await dialog(page).waitFor({ state: 'detached' });
  });

  it('creates a user through the dialog and shows it in the table', async () => {
    const { page } = opened;
    await page.getByTestId('users-add').click();
    await page.getByTestId('user-name').fill(user.name);
    await page.getByTestId('user-email').fill(user.email);
    await page.getByTestId('user-password').fill(user.password);
    await page.getByTestId('user-profile').selectOption('admin');
    await page.getByTestId('user-save').click();

    await waitForToast(page, 'success', 'User saved successfully!');
    await dialog(page).waitFor({ state: 'detached' });
    const row = page.getByTestId(`user-row-${user.email}`);
    await row.waitFor();
    expect(await cells(row)).toEqual(expect.arrayContaining([user.name, user.email, 'Admin']));
    await screenshot(page, 'users-en-light');
  });

  it('edits the name and shows the change, also after a reload', async () => {
    const { page } = opened;
    await page.getByTestId(`user-edit-${user.email}`).click();
    await dialog(page).getByText('Edit user').first().waitFor();
    expect(await page.getByTestId('user-name').inputValue()).toBe(user.name);
    expect(await page.getByTestId('user-email').inputValue()).toBe(user.email);
    await page.getByTestId('user-name').fill(renamed);
    await page.getByTestId('user-save').click();
    await waitForToast(page, 'success', 'User saved successfully!');
    await dialog(page).waitFor({ state: 'detached' });

    const row = page.getByTestId(`user-row-${user.email}`);
    await row.filter({ hasText: renamed }).waitFor();
    await page.reload();
    await row.filter({ hasText: renamed }).waitFor();
    expect((await cells(row))[0]).toBe(renamed);
  });

  it('searches the table by name', async () => {
    const { page } = opened;
    await page.getByTestId('users-search').fill(renamed.toUpperCase());
    // the search is debounced; then only the matching user is left
    await page.getByTestId(`user-row-${admin.email}`).waitFor({ state: 'detached' });
    await page.getByTestId(`user-row-${user.email}`).waitFor();
    expect(await page.locator('[data-testid^="user-row-"]').count()).toBe(1);

    await page.getByTestId('users-search').fill(`nobody-${id}`);
    await page.getByText('No users found').waitFor();
    expect(await page.locator('[data-testid^="user-row-"]').count()).toBe(0);

    await page.getByTestId('users-search').fill('');
    await page.getByTestId(`user-row-${admin.email}`).waitFor();
    await page.getByTestId(`user-row-${user.email}`).waitFor();
  });

  it('deletes the user after a confirmation and it is gone, also after a reload', async () => {
    const { page } = opened;
    await page.getByTestId(`user-delete-${user.email}`).click();
    await dialog(page).getByText(`Delete ${renamed}?`).waitFor();
    // cancelling keeps the user
    await page.getByTestId('confirm-cancel').click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(await page.getByTestId(`user-row-${user.email}`).count()).toBe(1);

    await page.getByTestId(`user-delete-${user.email}`).click();
    await page.getByTestId('confirm-ok').click();
    await waitForToast(page, 'success', 'User deleted successfully!');
    await page.getByTestId(`user-row-${user.email}`).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId(`user-row-${admin.email}`).waitFor();
    expect(await page.getByTestId(`user-row-${user.email}`).count()).toBe(0);
  });

  it('shows the validation errors in Portuguese after a language switch', async () => {
    const { page } = opened;
    await page.getByTestId('language-picker').click();
    await page.getByTestId('lang-pt').click();
    await page.getByRole('heading', { name: 'Usuários', level: 1 }).waitFor();
    await screenshot(page, 'users-pt-light');

    await page.getByTestId('users-add').click();
    await page.getByTestId('user-name').fill('B');
    await page.getByTestId('user-email').fill('b@');
    await page.getByTestId('user-save').click();
    await dialog(page).getByText('Muito curto!').first().waitFor();
    await dialog(page).getByText('E-mail inválido').waitFor();
    await page.getByTestId('user-cancel').click();
    expectNoPageErrors(opened);
  });
});
