import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TOpenedPage,
  takeCspViolations,
  waitForSocketReady,
} from '../support/browser';
import {
  companyWithApiAdmin,
  createSandboxConnection,
  idOfTestId,
  pairSandbox,
  ticketRowOf,
  until,
} from '../support/inbox';

/**
 * No active content from media (issue 10 item 1), in Chromium: a customer's document and an agent's upload,
 * each an XHTML file whose script would leave a mark (a value in Zelo's localStorage, the page title, a request
 * to a loopback server watched here), opened directly by URL and clicked in the conversation, run nothing and
 * arrive as downloads; so does a file an older Zelo stored as `.xml`. The web app itself runs under a CSP that
 * allows only its own scripts (checked against the built index.html and a script injected into the page).
 */

const MARK = 'zelo-media-ran';

describe('media never run in the browser', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let connectionId = 0;
  let ticketId = 0;
  let watcher: Server;
  let watcherUrl = '';
  const hits: string[] = [];
  const id = unique();
  const customer = { number: `5531${String(Date.now()).slice(-9)}`, name: `Cliente ${id}` };
  const page = () => opened.page;

  /** an XHTML document whose script marks that it ran */
  const xhtml = (who: string) =>
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>invoice</title></head><body><p>Nota fiscal</p>' +
    `<script>localStorage.setItem('${MARK}', '${who}'); document.title = '${MARK}';` +
    ` fetch('${watcherUrl}/${who}', { mode: 'no-cors' }); new Image().src = '${watcherUrl}/img-${who}';</script>` +
    '</body></html>\n';

  /** nothing ran: no request reached the watcher, no mark in Zelo's storage, no page retitled */
  const expectNothingRan = async () => {
    // a script that ran would have fired at once; give it time anyway
    await page().waitForTimeout(750);
    expect(hits).toEqual([]);
    expect(await page().evaluate((mark) => localStorage.getItem(mark), MARK)).toBeNull();
    for (const p of opened.context.pages()) {
      expect(await p.title()).not.toBe(MARK);
    }
  };

  /** the file's headers: a download that would run nothing if a browser rendered it */
  const expectAttachmentHeaders = async (url: string) => {
    const res = await opened.context.request.get(url);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-disposition']).toBe('attachment');
    expect(res.headers()['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
  };

  /** typed into the address bar: a download, never a document */
  const openDirectly = async (url: string) => {
    const tab = await opened.context.newPage();
    try {
      const download = tab.waitForEvent('download');
      // Chromium aborts a navigation that turns into a download
      await tab.goto(url).catch(() => null);
      expect(new URL((await download).url()).pathname).toBe(new URL(url).pathname);
      await expectNothingRan();
    } finally {
      await tab.close();
    }
  };

  /** the document's button in the conversation: a download, never a document */
  const clickInConversation = async (messageName: string) => {
    const button = page().getByTestId('message-document').filter({ hasText: messageName });
    await button.waitFor();
    const download = page().waitForEvent('download');
    await button.click();
    expect((await download).suggestedFilename()).toBe(messageName);
    await expectNothingRan();

    return (await button.getAttribute('href')) ?? '';
  };

  beforeAll(async () => {
    watcher = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((done) => watcher.listen(0, '127.0.0.1', done));
    const address = watcher.address();
    watcherUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    ({ admin, token } = await companyWithApiAdmin('Midia'));
    connectionId = await createSandboxConnection(token, `Loja ${id}`);
    await pairSandbox(token, connectionId);
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => watcher?.close(done));
  });

  it('serves the web app under a CSP that runs only its own scripts', async () => {
    const res = await fetch(`${inject('baseUrl')}/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const html = await res.text();
    // every script of the built page is a file of the app
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/assets\//);
      expect(body.trim()).toBe('');
    }
    // a script injected into the page is refused, and the guard of every e2e test hears of it
    await page().evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injectedRan = true';
      document.head.append(script);
    });
    expect(await page().evaluate(() => (window as { __injectedRan?: boolean }).__injectedRan)).toBeUndefined();
    await until('the violation to be reported', async () => {
      const seen = takeCspViolations();
      if (seen.length > 0) {
        expect(seen.join('\n')).toMatch(/script-src/);
      }

      return seen.length > 0;
    });
    // the console's copy of that refusal is this test's own doing
    const own = opened.consoleErrors.filter((line) => /Content Security Policy/.test(line));
    expect(own.length).toBeGreaterThan(0);
    opened.consoleErrors.splice(
      0,
      opened.consoleErrors.length,
      ...opened.consoleErrors.filter((l) => !own.includes(l)),
    );
  });

  it("downloads a customer's XHTML document, opened directly or clicked, and runs nothing", async () => {
    await waitForSocketReady(opened);
    const fileName = `nota-${id}.xml`;
    await apiCall('POST', `/sandbox/${connectionId}/inbound`, {
      token,
      body: {
        from: customer.number,
        name: customer.name,
        type: 'document',
        body: fileName,
        media: { data: Buffer.from(xhtml('customer')).toString('base64'), mimetype: 'application/xml', fileName },
      },
    });
    await page().getByTestId('menu-tickets').click();
    await page().getByTestId('tickets-subtab-pending').click();
    const row = ticketRowOf(page().getByTestId('tickets-list-pending'), customer.name);
    await row.waitFor();
    ticketId = await idOfTestId(row);
    await page().getByTestId(`ticket-accept-${ticketId}`).click();
    await page().getByTestId('conversation').waitFor();

    const href = await clickInConversation(fileName);
    const url = new URL(href, inject('baseUrl')).toString();
    expect(new URL(url).pathname).toMatch(/^\/public\/[0-9a-f]{32}\.txt$/);
    await expectAttachmentHeaders(url);
    await openDirectly(url);
  });

  it("downloads the agent's own XHTML upload, opened directly or clicked, and runs nothing", async () => {
    const fileName = `proposta-${id}.xhtml`;
    await page()
      .getByTestId('composer-file-input')
      .setInputFiles({
        name: fileName,
        mimeType: 'application/xhtml+xml',
        buffer: Buffer.from(xhtml('agent')),
      });
    await page().getByTestId('attachments-preview').getByText(fileName).waitFor();
    await page().getByTestId('attachments-send').click();
    await page().getByTestId('attachments-preview').waitFor({ state: 'detached' });

    const href = await clickInConversation(fileName);
    const url = new URL(href, inject('baseUrl')).toString();
    expect(new URL(url).pathname).toMatch(/^\/public\/[0-9a-f]{32}\.txt$/);
    await expectAttachmentHeaders(url);
    await openDirectly(url);
  });

  it('downloads a file an older Zelo stored as .xml, and runs nothing', async () => {
    const name = `${randomBytes(16).toString('hex')}.xml`;
    writeFileSync(join(inject('dataDir'), 'media', name), xhtml('older'));
    const url = `${inject('baseUrl')}/public/${name}`;
    await expectAttachmentHeaders(url);
    await openDirectly(url);
    expectNoPageErrors(opened);
  });
});
