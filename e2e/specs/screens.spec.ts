import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, apiLogin, createUser, unique } from '../support/api';
import {
  BACKGROUND,
  bodyBackground,
  expectNoPageErrors,
  HTML_LANG,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TLanguage,
  type TTheme,
  screenshot,
} from '../support/browser';

/**
 * Every main screen in light and dark, in Portuguese and English: a PNG each under e2e/artifacts, and the checks a
 * screenshot would show at a glance: the theme's background, the document language, no horizontal scrollbar and
 * no untranslated i18n key on screen.
 */

/** A key shown as is (i18next's answer for a missing translation), e.g. "settings.plans.name". */
const UNTRANSLATED =
  /\b(?:common|validation|errors|auth|guard|login|signup|forgot|language|menu|layout|profile|users|settings|helps|announcements|todolist)\.[a-zA-Z_]+(?:\.[a-zA-Z_]+)*\b/;

type TScreen = { name: string; path: string; ready: (page: Page) => Promise<unknown> };

const PUBLIC_SCREENS: TScreen[] = [
  { name: 'login', path: '/login', ready: (page) => page.getByTestId('login-submit').waitFor() },
  {
    name: 'signup',
    path: '/signup',
    ready: (page) => page.locator('[data-testid="signup-plan"] option').nth(1).waitFor({ state: 'attached' }),
  },
  { name: 'forgot', path: '/forgetpsw', ready: (page) => page.getByTestId('forgot-email').waitFor() },
];

const PRIVATE_SCREENS: TScreen[] = [
  { name: 'users', path: '/users', ready: (page) => page.locator('[data-testid^="user-row-"]').nth(1).waitFor() },
  {
    name: 'settings-options',
    path: '/settings?tab=options',
    ready: (page) => page.getByTestId('setting-userRating').waitFor(),
  },
  {
    name: 'settings-companies',
    path: '/settings?tab=companies',
    ready: (page) => page.locator('[data-testid^="company-row-"]').first().waitFor(),
  },
  {
    name: 'settings-plans',
    path: '/settings?tab=plans',
    ready: (page) => page.locator('[data-testid^="plan-row-"]').first().waitFor(),
  },
  {
    name: 'settings-helps',
    path: '/settings?tab=helps',
    ready: (page) => page.locator('[data-testid^="help-row-"]').first().waitFor(),
  },
  {
    name: 'announcements',
    path: '/announcements',
    ready: (page) => page.locator('[data-testid^="announcement-row-"]').first().waitFor(),
  },
  { name: 'todolist', path: '/todolist', ready: (page) => page.getByTestId('todo-input').waitFor() },
  { name: 'helps', path: '/helps', ready: (page) => page.locator('[data-testid^="help-card-"]').first().waitFor() },
];

const checkScreen = async (page: Page, language: TLanguage, theme: TTheme) => {
  const state = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    text: document.body.innerText,
  }));
  expect(state.lang).toBe(HTML_LANG[language]);
  expect(await bodyBackground(page)).toBe(BACKGROUND[theme]);
  expect(state.scrollWidth, 'horizontal overflow').toBeLessThanOrEqual(state.innerWidth);
  expect(UNTRANSLATED.exec(state.text)?.[0], 'untranslated key on screen').toBeUndefined();
};

/**
 * Opens the screen, checks it and saves its picture; a screen that does not come up is pictured as FAILED-…
 * `inApp`: the app's router is sent there as a link would, without starting the app again (each screen's `ready`
 * is its own, so the previous screen's content is never taken for it); else it is opened by its address.
 */
const visit = async (page: Page, screen: TScreen, language: TLanguage, theme: TTheme, inApp = false) => {
  const name = `${screen.name}-${language}-${theme}`;
  if (inApp) {
    await page.evaluate((path) => {
      window.history.pushState(null, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, screen.path);
  } else {
    await page.goto(screen.path);
  }
  try {
    await screen.ready(page);
  } catch (err) {
    await screenshot(page, `FAILED-${name}`);
    throw err;
  }
  await checkScreen(page, language, theme);
  await screenshot(page, name);
};

describe('main screens in light and dark, pt and en', () => {
  let browser: Browser;

  beforeAll(async () => {
    // something to show on the users and helps screens
    const token = await apiLogin(inject('superEmail'), inject('superPassword'));
    const id = unique();
    await createUser(token, {
      name: `Joana ${id}`,
      email: `joana-${id}@e2e.test`,
      password: 'joana-pass',
      profile: 'user',
    });
    await apiCall('POST', '/helps', {
      token,
      body: { title: `Conectando o WhatsApp ${id}`, description: 'Leia o QR code no celular.', video: 'abc123XYZ_-' },
    });
    await apiCall('POST', '/announcements', {
      token,
      body: { title: `Novidades da versão ${id}`, text: 'O painel ganhou novos filtros.', priority: 2 },
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const combos: [TLanguage, TTheme][] = [
    ['pt', 'light'],
    ['pt', 'dark'],
    ['en', 'light'],
    ['en', 'dark'],
  ];

  for (const [language, theme] of combos) {
    it(`renders every main screen in ${language}, ${theme}`, async () => {
      const opened = await openPage(browser, { language, theme });
      const { page } = opened;
      for (const screen of PUBLIC_SCREENS) {
        await visit(page, screen, language, theme);
      }
      await loginThroughUi(page, inject('superEmail'), inject('superPassword'));
      // nested entries (under Campaigns and Flows) are written like the others
      const menuFontSizes = await page
        .locator('[data-testid="side-menu"] .MuiListItemText-primary')
        .evaluateAll((texts) => [...new Set(texts.map((t) => getComputedStyle(t).fontSize))]);
      expect(menuFontSizes, 'side menu font sizes').toHaveLength(1);
      // the app started in this look for the login goes on to every private screen through its router
      for (const screen of PRIVATE_SCREENS) {
        await visit(page, screen, language, theme, true);
      }
      expectNoPageErrors(opened);
      await opened.context.close();
    });
  }
});
