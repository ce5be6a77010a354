import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type TCompanyAdmin, unique } from '../support/api';
import {
  BACKGROUND,
  bodyBackground,
  expectNoPageErrors,
  HTML_LANG,
  launchBrowser,
  loginThroughUi,
  openPage,
  screenshot,
  type TLanguage,
  type TOpenedPage,
  type TTheme,
  VIEWPORT,
} from '../support/browser';
import { companyWithApiAdmin, createSandboxConnection, pairSandbox } from '../support/inbox';

/**
 * The screens of the outbound, dashboard and billing, and automation work (issues 12–14), each with something
 * on it, in Portuguese, English and Spanish, light and dark, at 1366 px and, in two of those looks, at 390 px: a
 * PNG each under e2e/artifacts (`work-<screen>-<language>-<theme>[-390]`), and what a look at it would check —
 * the document language, the theme's background, no horizontal scrollbar, no translation key shown as is, and
 * no page error. Each look starts the app afresh on its first screen; the other screens are reached through the
 * app's router, as a click on a link would.
 */

/** a key of these screens' translations shown as is (i18next's answer for a missing one), e.g. "campaigns.status.INATIVA" */
const UNTRANSLATED =
  /\b(?:common|validation|menu|layout|dashboard|schedules|contactLists|files|campaigns|messagesApi|invoices|subscription|prompts|queueIntegrations|flows|phraseLists)\.[a-zA-Z_]+(?:\.[a-zA-Z_-]+)*\b/;

const LOOKS: [TLanguage, TTheme][] = [
  ['pt', 'light'],
  ['pt', 'dark'],
  ['en', 'light'],
  ['en', 'dark'],
  ['es', 'light'],
  ['es', 'dark'],
];
/** the looks also taken at a phone's width */
const NARROW = new Set(['pt-light', 'es-dark']);

type TScreen = { name: string; path: string; ready: (page: Page) => Promise<unknown> };

describe('the outbound, dashboard, billing and automation screens in pt, en and es, light and dark, and at 390 px', () => {
  const id = unique();
  const names = {
    connection: `Loja ${id}`,
    contact: `Cliente ${id}`,
    list: `Lista ${id}`,
    listItem: `Pessoa ${id}`,
    files: `Arquivos ${id}`,
    campaign: `Campanha ${id}`,
    prompt: `Assistente ${id}`,
    integration: `Gancho ${id}`,
    flow: `Fluxo ${id}`,
    phrase: `Frase ${id}`,
  };
  let admin: TCompanyAdmin;
  let opened: TOpenedPage;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let screens: TScreen[] = [];

  const byText = (text: string) => (page: Page) => page.getByText(text).first().waitFor();
  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor();

  beforeAll(async () => {
    let token: string;
    ({ admin, token } = await companyWithApiAdmin('Telas'));
    const post = <T>(path: string, body: unknown) => apiCall<T & { id: number }>('POST', path, { token, body });

    const connectionId = await createSandboxConnection(token, names.connection);
    await pairSandbox(token, connectionId);
    const queue = await post('/queue', { name: `Suporte ${id}`, color: '#3366ff' });
    const contact = await post('/contacts', { name: names.contact, number: `5531${String(Date.now()).slice(-8)}1` });
    const schedule = await post('/schedules', {
      body: `Lembrete da consulta ${id}`,
      contactId: contact.id,
      sendAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      whatsappId: connectionId,
    });
    const list = await post('/contact-lists', { name: names.list });
    await post('/contact-list-items', {
      name: names.listItem,
      number: `5531${String(Date.now()).slice(-8)}2`,
      email: '',
      contactListId: list.id,
    });
    await post('/files', { name: names.files, message: 'Nosso catálogo' });
    const campaign = await post('/campaigns', {
      name: names.campaign,
      message1: 'Olá {nome}, temos novidades!',
      contactListId: list.id,
      whatsappId: connectionId,
    });
    await post('/prompt', {
      name: names.prompt,
      prompt: 'Você é o atendente virtual da loja. Responda com educação e objetividade, em português.',
      apiKey: 'sk-telas-0123456789',
      queueId: queue.id,
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
    });
    await post('/queueIntegration', { type: 'webhook', name: names.integration, urlN8N: 'https://example.com/hook' });
    const flow = await post('/flowbuilder', { name: names.flow });
    await post('/flowcampaign', { name: names.phrase, flowId: flow.id, whatsappId: connectionId, phrase: `oi ${id}` });

    screens = [
      { name: 'dashboard', path: '/', ready: (page) => page.getByTestId('chart-day').waitFor() },
      {
        name: 'schedules',
        path: '/schedules?view=agenda',
        ready: (page) => page.getByTestId(`schedule-event-${schedule.id}`).waitFor(),
      },
      { name: 'contact-lists', path: '/contact-lists', ready: byText(names.list) },
      { name: 'contact-list-items', path: `/contact-lists/${list.id}/contacts`, ready: byText(names.listItem) },
      { name: 'files', path: '/files', ready: byText(names.files) },
      { name: 'campaigns-config', path: '/campaigns-config', ready: heading },
      { name: 'campaigns', path: '/campaigns', ready: byText(names.campaign) },
      { name: 'campaign-report', path: `/campaign/${campaign.id}/report`, ready: byText(names.campaign) },
      {
        name: 'messages-api',
        path: '/messages-api',
        ready: byText(names.connection),
      },
      { name: 'invoices', path: '/financeiro', ready: heading },
      {
        name: 'subscription',
        path: '/subscription',
        ready: (page) => page.getByTestId('subscription-standing').waitFor(),
      },
      { name: 'prompts', path: '/prompts', ready: byText(names.prompt) },
      { name: 'queue-integration', path: '/queue-integration', ready: byText(names.integration) },
      { name: 'flowbuilders', path: '/flowbuilders', ready: byText(names.flow) },
      {
        name: 'flow-editor',
        path: `/flowbuilder/${flow.id}`,
        ready: (page) => page.getByTestId('flow-node-start').waitFor(),
      },
      { name: 'phrase-lists', path: '/phrase-lists', ready: byText(names.phrase) },
    ];

    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'pt', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  /**
   * opens the screen in the stored look, waits for its content, checks it and saves its picture: `load` opens it
   * by its address (the app starts afresh and reads the stored look), else the app's router is sent there as a
   * link would, without starting the app again
   */
  const visit = async (screen: TScreen, language: TLanguage, theme: TTheme, suffix: string, load: boolean) => {
    const { page } = opened;
    const name = `work-${screen.name}-${language}-${theme}${suffix}`;
    if (load) {
      await page.goto(screen.path);
    } else {
      // the screen shown so far (what the layout's <main> holds below its bars) must go before the next one's
      // content is looked for, so that content on both (a campaign's name) is not found on the old one
      const shown = await page.evaluate((path) => {
        const before = [...document.querySelectorAll('main > :last-child > *')];
        (window as unknown as { shownBefore: Element[] }).shownBefore = before;
        window.history.pushState(null, '', path);
        window.dispatchEvent(new PopStateEvent('popstate'));
        return before.length;
      }, screen.path);
      expect(shown, `${name}: the previous screen in <main>`).toBeGreaterThan(0);
      await page.waitForFunction(() =>
        (window as unknown as { shownBefore: Element[] }).shownBefore.every((element) => !element.isConnected),
      );
    }
    try {
      await screen.ready(page);
    } catch (err) {
      await screenshot(page, `FAILED-${name}`);
      throw err;
    }
    await screenshot(page, name);
    const state = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      text: document.body.innerText,
    }));
    expect(state.lang, name).toBe(HTML_LANG[language]);
    expect(await bodyBackground(page), name).toBe(BACKGROUND[theme]);
    expect(state.scrollWidth, `${name}: horizontal overflow`).toBeLessThanOrEqual(state.innerWidth);
    expect(UNTRANSLATED.exec(state.text)?.[0], `${name}: untranslated key on screen`).toBeUndefined();
  };

  for (const [language, theme] of LOOKS) {
    it(`${language}, ${theme}`, async () => {
      const { page } = opened;
      await page.evaluate(
        ([language, theme]) => {
          localStorage.setItem('i18nextLng', language);
          localStorage.setItem('preferredTheme', theme);
        },
        [language, theme],
      );
      await page.setViewportSize(VIEWPORT);
      // the first screen starts the app in the new look; the others are reached through its router
      for (const [i, screen] of screens.entries()) await visit(screen, language, theme, '', i === 0);
      if (NARROW.has(`${language}-${theme}`)) {
        await page.setViewportSize({ width: 390, height: 844 });
        for (const screen of screens) await visit(screen, language, theme, '-390', false);
        await page.setViewportSize(VIEWPORT);
      }
      expectNoPageErrors(opened);
    });
  }
});
