import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiCallError, apiLogin, signUpCompany, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  fillLogin,
  launchBrowser,
  openPage,
  type TOpenedPage,
  screenshot,
  waitForPath,
  waitForToast,
} from '../support/browser';

/** The 6-digit code of the newest reset mail to `email` that the server wrote under <DATA_DIR>/mail. */
const readResetCode = async (email: string, after: Set<string>) => {
  const dir = join(inject('dataDir'), 'mail');
  let file: string | undefined;
  await expect
    .poll(
      async () => {
        const names = await readdir(dir).catch(() => [] as string[]);
        file = names
          .filter((n) => n.endsWith(`-${email}.txt`) && !after.has(n))
          .sort()
          .at(-1);

        return file;
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBeTruthy();
  const text = await readFile(join(dir, file!), 'utf8');
  expect(text).toContain(`To: ${email}`);
  const code = /(?:code is|senha é|contraseña es): (\d{6})/.exec(text)?.[1];
  expect(code, text).toMatch(/^\d{6}$/);

  return code!;
};

const mailFiles = async () => new Set(await readdir(join(inject('dataDir'), 'mail')).catch(() => [] as string[]));

describe('forgotten password', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  const newPassword = `Nova-Senha${unique().slice(-4)}9`;

  beforeAll(async () => {
    admin = await signUpCompany('Senhas');
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('answers an unknown e-mail with the translated error', async () => {
    const { page } = opened;
    await page.goto('/login');
    await page.getByTestId('login-forgot').click();
    await waitForPath(page, '/forgetpsw');
    await screenshot(page, 'forgot-en-light');
    await page.getByTestId('forgot-email').fill(`nobody-${unique()}@e2e.test`);
    await page.getByTestId('forgot-send').click();
    await waitForToast(page, 'error', 'User not found. Check the email you entered.');
    expect(await page.getByTestId('forgot-code').count()).toBe(0);
  });

  it('resets the password with the e-mailed code and logs in with the new one', async () => {
    const { page } = opened;
    const before = await mailFiles();
    await page.getByTestId('forgot-email').fill(admin.email);
    await page.getByTestId('forgot-send').click();
    await waitForToast(page, 'success', 'We sent a verification code to your email.');
    expect(await page.getByTestId('forgot-sent-to').textContent()).toBe(`Code sent to ${admin.email}`);
    const code = await readResetCode(admin.email, before);

    // a weak password is refused before anything is sent
    await page.getByTestId('forgot-code').fill(code);
    await page.getByTestId('forgot-password').fill('weakpass');
    await page.getByTestId('forgot-password-confirmation').fill('weakpass');
    await page.getByTestId('forgot-submit').click();
    await page
      .getByText('The password needs at least 8 characters, one uppercase letter, one lowercase letter and one number')
      .waitFor();

    // a wrong code is refused by the server
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByTestId('forgot-code').fill(wrong);
    await page.getByTestId('forgot-password').fill(newPassword);
    await page.getByTestId('forgot-password-confirmation').fill(newPassword);
    await page.getByTestId('forgot-submit').click();
    await waitForToast(page, 'error', 'Invalid or expired verification code.');
    await screenshot(page, 'forgot-code-en-light');

    await page.getByTestId('forgot-code').fill(code);
    await page.getByTestId('forgot-submit').click();
    await waitForToast(page, 'success', 'Password reset! Please log in.');
    await waitForPath(page, '/login');

    // the old password no longer works, the new one does
    await expect(apiLogin(admin.email, admin.password)).rejects.toBeInstanceOf(ApiCallError);
    await fillLogin(page, admin.email, newPassword);
    await page.getByTestId('greeting').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('greeting').textContent()).toContain(admin.companyName);
    expectNoPageErrors(opened);
  });
});
