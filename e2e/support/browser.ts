import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { ARTIFACTS_DIR } from './paths';

export type TLanguage = 'pt' | 'en' | 'es';
export type TTheme = 'light' | 'dark';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const VIEWPORT = { width: 1366, height: 800 };
export const TIME_ZONE = 'America/Sao_Paulo';

/** dd/MM/yyyy of today plus `days` in the browser's time zone (the app's date format). */
export const dayFromToday = (days: number) => {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).formatToParts(new Date(Date.now() + days * 86_400_000));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';

  return `${part('day')}/${part('month')}/${part('year')}`;
};

/**
 * Debian's Chromium, headless (playwright-core never downloads a browser here); `extraArgs` for a spec's own
 * needs (a fake microphone, …).
 */
export const launchBrowser = (extraArgs: string[] = []) =>
  chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });

/**
 * Content Security Policy violations of every page opened in this test file (the console's "Refused to …
 * Content Security Policy" lines and the documents' `securitypolicyviolation` events). support/csp-guard.ts fails
 * the test during which one appeared.
 */
const cspViolations: string[] = [];

/** the violations seen since the last call, which forgets them */
export const takeCspViolations = () => cspViolations.splice(0);

const CSP_IN_CONSOLE = /Content[- ]Security[- ]Policy|securitypolicyviolation/i;

/** every page of the context (popups included) reports what the policy refused */
const watchCsp = async (context: BrowserContext) => {
  const watchPage = (page: Page) =>
    page.on('console', (msg) => {
      if (CSP_IN_CONSOLE.test(msg.text())) {
        cspViolations.push(`${page.url()}: ${msg.text()}`);
      }
    });
  context.on('page', watchPage);
  await context.exposeBinding('__zeloCspViolation', ({ frame }, text: string) => {
    cspViolations.push(`${frame.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __zeloCspViolation?: (text: string) => void }).__zeloCspViolation;
      report?.(`securitypolicyviolation ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})`);
    });
  });
};

export type TOpenedPage = {
  context: BrowserContext;
  page: Page;
  /** uncaught exceptions of the page */
  pageErrors: string[];
  /** console.error lines, except the browser's own "Failed to load resource" for a 4xx/5xx answer */
  consoleErrors: string[];
  /** how many times the server said `ready` on the page's Socket.IO connections */
  socketReadies: () => number;
};

type TOpenOptions = {
  /** the interface language on the first visit (a stored choice made later in the test wins) */
  language?: TLanguage;
  /** the colour mode on the first visit (a stored choice made later in the test wins) */
  theme?: TTheme;
};

/** A fresh context (own storage and cookies) with one 1366×800 page on the e2e server. */
export const openPage = async (browser: Browser, { language, theme }: TOpenOptions = {}): Promise<TOpenedPage> => {
  const context = await browser.newContext({
    baseURL: inject('baseUrl'),
    viewport: VIEWPORT,
    locale: 'pt-BR',
    // the server keeps due dates as calendar days of São Paulo; the browser counts days in its own zone
    timezoneId: TIME_ZONE,
    colorScheme: 'light',
  });
  // seeds preferences before the app reads them, only when the app has stored none yet, so a reload keeps
  // whatever the user picked meanwhile
  await context.addInitScript(
    ({ language, theme }) => {
      // embedded frames (the help video player) are not the app
      if (window !== window.top) {
        return;
      }
      if (language && localStorage.getItem('i18nextLng') === null) {
        localStorage.setItem('i18nextLng', language);
      }
      if (theme && localStorage.getItem('preferredTheme') === null) {
        localStorage.setItem('preferredTheme', theme);
      }
    },
    { language, theme },
  );
  await watchCsp(context);
  // a step that cannot happen fails in 20 s rather than Playwright's 30 s, so one broken screen does not stall the run
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.stack ?? err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) {
      consoleErrors.push(msg.text());
    }
  });
  let readies = 0;
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      // Socket.IO event packet: 42["ready", ...]
      if (typeof payload === 'string' && payload.startsWith('42["ready"')) {
        readies += 1;
      }
    });
  });

  return { context, page, pageErrors, consoleErrors, socketReadies: () => readies };
};

/** A spec ends by asserting the page threw nothing and logged no error of its own. */
export const expectNoPageErrors = (opened: Pick<TOpenedPage, 'pageErrors' | 'consoleErrors'>) => {
  expect(opened.pageErrors, 'uncaught page errors').toEqual([]);
  expect(opened.consoleErrors, 'console errors').toEqual([]);
};

/** Waits until the page's realtime connection is authenticated and joined (more `ready`s than `before`). */
export const waitForSocketReady = async (opened: TOpenedPage, before = 0) => {
  await expect.poll(opened.socketReadies, { timeout: 15_000, interval: 100 }).toBeGreaterThan(before);
};

/**
 * Resolves once the fonts are loaded and the transitions under way (a dialog, the drawer, a tab's indicator) have
 * ended — waited for, not a fixed pause; an endless one (a spinner) is not waited on, and none holds it more than
 * 1.5 s — and two frames are drawn: what a picture of the page should wait for.
 */
export const settled = (page: Page) =>
  page.evaluate(async () => {
    await document.fonts.ready;
    const running = document
      .getAnimations()
      .filter((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined));
    await Promise.race([Promise.all(running), new Promise((done) => setTimeout(done, 1_500))]);
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  });

/** Saves a full-viewport PNG as e2e/artifacts/<name>.png and returns its path. */
export const screenshot = async (page: Page, name: string) => {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = resolve(ARTIFACTS_DIR, `${name}.png`);
  await settled(page);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });

  return path;
};

/** Resolves once a toast of that severity shows the text (the whole text, or a part given as a RegExp). */
export const waitForToast = async (
  page: Page,
  severity: 'success' | 'error' | 'warning' | 'info',
  text: string | RegExp,
) => {
  const toast = page.getByTestId(`toast-${severity}`).filter({ hasText: text });
  await toast.first().waitFor({ state: 'visible', timeout: 10_000 });

  return toast.first();
};

/** Several toasts on screen stack one under the other at the top right, inside the viewport, below the top bar. */
export const expectToastsStacked = async (page: Page) => {
  const boxes = (
    await Promise.all((await page.locator('[data-testid^="toast-"]').all()).map((toast) => toast.boundingBox()))
  ).filter((box) => box !== null);
  expect(boxes.length, 'toasts on screen').toBeGreaterThanOrEqual(2);
  boxes.sort((a, b) => a.y - b.y);
  // screens without a top bar (login, sign-up) have no header to stay below; never wait for one
  const header = page.locator('header');
  const topBar = (await header.count()) > 0 ? await header.first().boundingBox() : null;
  for (const [i, box] of boxes.entries()) {
    expect(box.x + box.width, 'toast inside the viewport').toBeLessThanOrEqual(VIEWPORT.width);
    if (topBar) expect(box.y, 'toast below the top bar').toBeGreaterThanOrEqual(topBar.y + topBar.height);
    if (i > 0) {
      const above = boxes[i - 1];
      expect(box.y, 'toast below the previous one').toBeGreaterThanOrEqual(above.y + above.height - 1);
    }
  }
};

/** A toast sits below the top bar: it never covers the bar's controls (language, theme, account). */
export const expectBelowTopBar = async (page: Page, toast: Locator) => {
  const [bar, box] = await Promise.all([page.locator('header').first().boundingBox(), toast.boundingBox()]);
  expect(bar, 'top bar').not.toBeNull();
  expect(box, 'toast').not.toBeNull();
  if (bar && box) expect(box.y, 'toast below the top bar').toBeGreaterThanOrEqual(bar.y + bar.height);
};

/** The path of the page's current URL. */
export const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Waits until the page is at that path (client-side navigations included). */
export const waitForPath = async (page: Page, path: string, timeout = 10_000) => {
  await page.waitForURL((url) => url.pathname === path, { timeout });
};

/** Logs in through /login (the page must be there). */
export const fillLogin = async (page: Page, email: string, password: string) => {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
};

/** Opens /login, logs in and waits for the top bar's greeting. */
export const loginThroughUi = async (page: Page, email: string, password: string) => {
  await page.goto('/login');
  await fillLogin(page, email, password);
  await page.getByTestId('greeting').waitFor({ timeout: 15_000 });
};

/** The computed background colour of the page body, e.g. 'rgb(250, 250, 250)'. */
export const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** the document language of each interface language */
export const HTML_LANG: Record<TLanguage, string> = { pt: 'pt-BR', en: 'en', es: 'es' };
/** the body's background in each theme */
export const BACKGROUND: Record<TTheme, string> = { light: 'rgb(243, 245, 247)', dark: 'rgb(18, 20, 23)' };
/** a translation key shown as is, e.g. "connections.qr.title" */
const UNTRANSLATED =
  /\b(?:common|errors|validation|menu|layout|connections|contacts|simulator|tickets|queues)\.[a-zA-Z_]+(?:\.[a-zA-Z_-]+)*\b/;

/** the language and theme pairs the screenshots are taken in */
export const LOOKS: [TLanguage, TTheme][] = [
  ['en', 'light'],
  ['en', 'dark'],
  ['pt', 'light'],
  ['pt', 'dark'],
];

/**
 * Runs `work` once in each of LOOKS: the language and theme are stored for the next navigation; `name`
 * names a screenshot (`prefix-screen-language-theme`), `check` asserts the page is in that language and
 * theme and shows no translation key as is.
 */
export const inEachLook = async (
  page: Page,
  prefix: string,
  work: (look: {
    language: TLanguage;
    theme: TTheme;
    name: (screen: string) => string;
    check: () => Promise<void>;
  }) => Promise<void>,
) => {
  for (const [language, theme] of LOOKS) {
    await page.evaluate(
      ([language, theme]) => {
        localStorage.setItem('i18nextLng', language);
        localStorage.setItem('preferredTheme', theme);
      },
      [language, theme],
    );
    const check = async () => {
      const state = await page.evaluate(() => ({
        lang: document.documentElement.lang,
        background: getComputedStyle(document.body).backgroundColor,
        text: document.body.innerText,
      }));
      expect(state.lang).toBe(HTML_LANG[language]);
      expect(state.background).toBe(BACKGROUND[theme]);
      expect(UNTRANSLATED.exec(state.text)?.[0], 'untranslated key on screen').toBeUndefined();
    };
    await work({ language, theme, name: (screen) => `${prefix}-${screen}-${language}-${theme}`, check });
  }
};
