import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBundleReport } from '../../apps/web/vite-bundle-report';
import { apiCall, type TCompanyAdmin } from '../support/api';
import { launchBrowser, loginThroughUi, openPage, type TOpenedPage, waitForSocketReady } from '../support/browser';
import { companyWithApiAdmin, createSandboxConnection, customerWrites, pairSandbox, until } from '../support/inbox';
import { ROOT_DIR } from '../support/paths';

/**
 * The inbox's JavaScript budget (issue 23 item 1): what a signed-in agent's browser downloads, brotli as the
 * server sends it, from opening `/tickets` with an empty cache until the first ticket of the list shows. Every
 * other screen's code, and the charts, the flow editor, the calendar and the spreadsheet code, load only when their
 * screen opens. When the budget is exceeded the failure names the biggest modules of what the inbox loaded (from
 * the build's report, apps/web/vite-bundle-report.ts), so the next person sees why.
 *
 * The issue's target is 200 KB. The inbox loaded 331 KB before issue 23, 234 KB after its first step and 201 KB
 * after the second (the app's own translator instead of i18next, a light hint instead of MUI's Tooltip and Popper.js
 * on the top bar and the rows, the socket.io client loaded once the first list shows), 187–191 KB after the third
 * (one language's texts instead of three, the list's virtualizer loaded once the first list shows). What counts is
 * what the page asked for before the first ticket row entered it, by the requests' start times, in each language.
 * The budget holds what was reached with under 1 KB of slack, so it can only go down.
 */
const BUDGET_KB = 192;
const TARGET_KB = 200;

/** code that has no business on the inbox: its own screens load it */
const NOT_ON_THE_INBOX = [
  /node_modules\/@mui\/x-charts\//,
  /node_modules\/@xyflow\//,
  /node_modules\/react-big-calendar\//,
  /node_modules\/(xlsx|exceljs|papaparse)\//,
  /apps\/web\/src\/features\/(dashboard|reports|flows|schedules|campaigns|kanban|settings)\//,
];

const DIST = join(ROOT_DIR, 'apps/web/dist');
const REPORT = join(ROOT_DIR, 'apps/web/.build-report/bundle.json');

/** what the server sent for a built file: its brotli copy, or the file itself when it is too small to have one */
const sentBytes = (file: string) => {
  const br = join(DIST, 'assets', `${file}.br`);
  return existsSync(br) ? statSync(br).size : statSync(join(DIST, 'assets', file)).size;
};

const readReport = (): TBundleReport => {
  if (!existsSync(REPORT)) throw new Error(`no build report at ${REPORT}: build the web app (npm run build)`);
  const report = JSON.parse(readFileSync(REPORT, 'utf8')) as TBundleReport;
  const entry = report.chunks.find((c) => c.entry);
  if (!entry || !existsSync(join(DIST, entry.file))) throw new Error('the build report is older than apps/web/dist');
  return report;
};

describe('the inbox loads within its JavaScript budget', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let companyToken = '';
  let connectionId = 0;

  beforeAll(async () => {
    const company = await companyWithApiAdmin('Budget');
    admin = company.admin;
    companyToken = company.token;
    connectionId = await createSandboxConnection(company.token, 'Budget');
    await pairSandbox(company.token, connectionId);
    await customerWrites(company.token, connectionId, '5511977770001', 'Cliente Budget', 'Olá!');
    // the admin accepts it: the inbox's first tab ("in service") lists it
    const adminToken = (
      await apiCall<{ token: string }>('POST', '/auth/login', {
        body: { email: admin.email, password: admin.password },
      })
    ).token;
    let ticketId = 0;
    await until('the customer’s ticket', async () => {
      const list = await apiCall<{ tickets: { id: number }[] }>('GET', '/tickets?status=pending&showAll=true', {
        token: adminToken,
      });
      ticketId = list.tickets[0]?.id ?? 0;
      return ticketId > 0;
    });
    await apiCall('PUT', `/tickets/${ticketId}`, { token: adminToken, body: { status: 'open' } });
    browser = await launchBrowser();
    opened = await openPage(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it(`needs at most ${BUDGET_KB} KB of brotli JavaScript before the first ticket shows`, async () => {
    const report = readReport();
    const { page, context } = opened;
    await loginThroughUi(page, admin.email, admin.password);
    // a returning agent with an empty cache: the session stays, every script is fetched again
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    // the moment the first ticket row enters the page, taken in the page (a mutation observer runs right after
    // React writes the rows, before anything their showing sets off): what the inbox needed is what was asked
    // for before it, by the requests' own start times
    await page.addInitScript(() => {
      const mark = window as unknown as { firstTicketAt?: number };
      new MutationObserver((_records, observer) => {
        if (document.querySelector('[data-testid^="ticket-row-"]')) {
          mark.firstTicketAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });

    // a first visit reads English, whose texts are in the bundle; an agent who chose Portuguese (most of Zelo's)
    // or Spanish fetches that language's texts before the first render: each is held to the budget
    let readiesBefore = 0;
    for (const language of ['en', 'pt', 'es'] as const) {
      await page.evaluate((lng) => localStorage.setItem('i18nextLng', lng), language);
      readiesBefore = opened.socketReadies();
      const scripts = new Map<string, string | undefined>();
      const heard = (res: Response) => {
        const path = new URL(res.url()).pathname;
        if (path.startsWith('/assets/') && path.endsWith('.js'))
          scripts.set(basename(path), res.headers()['content-encoding']);
      };
      page.on('response', heard);
      await page.goto('/tickets');
      await page.locator('[data-testid^="ticket-row-"]').first().waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language === 'pt' ? 'pt-BR' : language);
      const asked = await page.evaluate(() => {
        const { firstTicketAt } = window as unknown as { firstTicketAt?: number };

        return performance
          .getEntriesByType('resource')
          .filter((entry) => firstTicketAt !== undefined && entry.startTime <= firstTicketAt)
          .map((entry) => new URL(entry.name).pathname)
          .filter((path) => path.startsWith('/assets/') && path.endsWith('.js'))
          .map((path) => path.slice('/assets/'.length));
      });
      page.off('response', heard);
      for (const file of [...scripts.keys()]) if (!asked.includes(file)) scripts.delete(file);

      const files = [...scripts.keys()];
      expect(files.length, 'the inbox loaded its scripts').toBeGreaterThan(0);
      for (const [file, encoding] of scripts) {
        if (existsSync(join(DIST, 'assets', `${file}.br`))) expect(encoding, `${file} is sent brotli`).toBe('br');
      }
      const chunks = report.chunks.filter((c) => files.includes(basename(c.file)));
      const modules = chunks.flatMap((c) => c.modules);
      const misplaced = modules
        .filter(([id]) => NOT_ON_THE_INBOX.some((pattern) => pattern.test(id)))
        .map(([id]) => id);
      expect(misplaced, 'code of other screens loaded on the inbox').toEqual([]);
      // English (in the bundle) and the chosen language's texts, not the third
      const languages = modules.filter(([id]) => /src\/i18n\/locales\//.test(id)).map(([id]) => basename(id));
      expect(languages.sort(), language).toEqual([...new Set(['en.ts', `${language}.ts`])].sort());

      const totalKb = files.reduce((sum, file) => sum + sentBytes(file), 0) / 1024;
      const biggest = [...modules]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([id, bytes]) => `${(bytes / 1024).toFixed(1).padStart(6)} KB  ${id}`)
        .join('\n');
      const perFile = files
        .map((file) => [file, sentBytes(file)] as const)
        .sort((a, b) => b[1] - a[1])
        .map(([file, bytes]) => `${(bytes / 1024).toFixed(1).padStart(6)} KB  ${file}`)
        .join('\n');
      console.log(
        `inbox (${language}): ${totalKb.toFixed(1)} KB brotli JavaScript in ${files.length} files (budget ${BUDGET_KB}, target ${TARGET_KB})\n${perFile}`,
      );
      expect(
        totalKb,
        `the inbox (${language}) loads ${totalKb.toFixed(1)} KB of brotli JavaScript; biggest modules (before minifying):\n${biggest}`,
      ).toBeLessThanOrEqual(BUDGET_KB);
    }

    // the realtime connection, left for after the list, opens and brings what happens next
    await waitForSocketReady(opened, readiesBefore);
    await customerWrites(companyToken, connectionId, '5511977770002', 'Cliente Depois', 'Cheguei agora');
    await page.getByTestId('tickets-subtab-pending').click();
    await page.getByText('Cliente Depois').waitFor({ timeout: 15_000 });
  });
});
