import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpCompany, type TCompanyAdmin } from '../support/api';
import {
  bodyBackground,
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TLanguage,
  type TOpenedPage,
  screenshot,
} from '../support/browser';

/** What the side menu and the login card say in each language. */
const TEXTS: Record<
  TLanguage,
  { users: string; settings: string; helps: string; loginTitle: string; htmlLang: string }
> = {
  pt: { users: 'Usuários', settings: 'Configurações', helps: 'Ajuda', loginTitle: 'Entrar', htmlLang: 'pt-BR' },
  en: { users: 'Users', settings: 'Settings', helps: 'Help', loginTitle: 'Log in', htmlLang: 'en' },
  es: { users: 'Usuarios', settings: 'Configuración', helps: 'Ayuda', loginTitle: 'Iniciar sesión', htmlLang: 'es' },
};

const LIGHT_BACKGROUND = 'rgb(243, 245, 247)';
const DARK_BACKGROUND = 'rgb(18, 20, 23)';

const storedLanguage = (page: Page) => page.evaluate(() => localStorage.getItem('i18nextLng'));
const storedTheme = (page: Page) => page.evaluate(() => localStorage.getItem('preferredTheme'));

const expectMenuIn = async (page: Page, lang: TLanguage) => {
  const texts = TEXTS[lang];
  await page.getByTestId('menu-users').filter({ hasText: texts.users }).waitFor();
  expect((await page.getByTestId('menu-users').textContent())?.trim()).toBe(texts.users);
  expect((await page.getByTestId('menu-settings').textContent())?.trim()).toBe(texts.settings);
  expect((await page.getByTestId('menu-helps').textContent())?.trim()).toBe(texts.helps);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe(texts.htmlLang);
};

const pickLanguage = async (page: Page, lang: TLanguage) => {
  await page.getByTestId('language-picker').click();
  await page.getByTestId(`lang-${lang}`).click();
};

describe('language and theme', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;

  beforeAll(async () => {
    admin = await signUpCompany('Idiomas');
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'pt', theme: 'light' });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('switches the login screen between languages', async () => {
    const { page } = opened;
    await page.goto('/login');
    const title = page.getByRole('heading', { level: 1 });
    expect(await title.textContent()).toBe(TEXTS.pt.loginTitle);
    await pickLanguage(page, 'en');
    await title.filter({ hasText: TEXTS.en.loginTitle }).waitFor();
    expect(await storedLanguage(page)).toBe('en');
    await pickLanguage(page, 'pt');
    await title.filter({ hasText: TEXTS.pt.loginTitle }).waitFor();
  });

  it('switches the menu pt → en → es, and the choice survives a reload', async () => {
    const { page } = opened;
    await loginThroughUi(page, admin.email, admin.password);
    await expectMenuIn(page, 'pt');

    await pickLanguage(page, 'en');
    await expectMenuIn(page, 'en');
    expect(await storedLanguage(page)).toBe('en');
    await screenshot(page, 'dashboard-en-light');

    await pickLanguage(page, 'es');
    await expectMenuIn(page, 'es');
    expect(await storedLanguage(page)).toBe('es');

    await page.reload();
    await page.getByTestId('greeting').waitFor();
    await expectMenuIn(page, 'es');
    expect(await storedLanguage(page)).toBe('es');

    // back to Portuguese for what follows
    await pickLanguage(page, 'pt');
    await expectMenuIn(page, 'pt');
  });

  it('toggles the theme: stored preference and page background change, and survive a reload', async () => {
    const { page } = opened;
    expect(await storedTheme(page)).toBe('light');
    expect(await bodyBackground(page)).toBe(LIGHT_BACKGROUND);

    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => storedTheme(page)).toBe('dark');
    await expect.poll(() => bodyBackground(page)).toBe(DARK_BACKGROUND);
    await screenshot(page, 'dashboard-pt-dark');

    await page.reload();
    await page.getByTestId('greeting').waitFor();
    expect(await storedTheme(page)).toBe('dark');
    expect(await bodyBackground(page)).toBe(DARK_BACKGROUND);

    await page.getByTestId('theme-toggle').click();
    await expect.poll(() => storedTheme(page)).toBe('light');
    await expect.poll(() => bodyBackground(page)).toBe(LIGHT_BACKGROUND);
    expectNoPageErrors(opened);
  });
});
