import type { Browser, Locator, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TOpenedPage,
  screenshot,
  waitForSocketReady,
} from '../support/browser';
import {
  companyWithApiAdmin,
  createSandboxConnection,
  customerWrites,
  idOfTestId,
  pairSandbox,
  ticketRowOf,
} from '../support/inbox';

/**
 * Long lists in Chromium (issue 11): the tickets list holding 10,000 tickets and a conversation holding 5,000
 * messages keep only a window of rows in the DOM, load the next page near the end (the older page near the top of
 * a conversation, keeping what is on screen in place), show day headers, and follow new messages only while the
 * agent is at the bottom. The long pages are the server's own answers with their rows replaced (page.route), so
 * the screens run against the real API, socket and ticket.
 */

const TICKETS = 10_000;
const MESSAGES = 5_000;
/** the ids of the made-up rows, far from the database's */
const FIRST_ID = 50_000_000;
/** fewer rows than this in the DOM: a window, not the list */
const WINDOW = 100;

const iso = (ms: number) => new Date(ms).toISOString();

/** A ticket of the assigned list, as the API shapes it. */
const fakeTicket = (n: number, connection: { id: number; name: string }) => {
  const id = FIRST_ID + n;

  return {
    id,
    uuid: `long-list-${id}`,
    status: 'open',
    userId: null,
    user: null,
    queueId: null,
    queue: null,
    whatsappId: connection.id,
    whatsapp: { id: connection.id, name: connection.name, status: 'CONNECTED' },
    contactId: id,
    contact: {
      id,
      name: `Fila longa ${n}`,
      number: `5511${String(n).padStart(9, '0')}`,
      email: '',
      profilePicUrl: '',
      isGroup: false,
    },
    tags: [],
    isGroup: false,
    chatbot: false,
    lastMessage: `mensagem ${n}`,
    unreadMessages: 0,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    code: '',
    createdAt: iso(Date.now() - n * 60_000),
    updatedAt: iso(Date.now() - n * 60_000),
  };
};

/** Message n of the conversation (1 the oldest): one every 4.8 hours (5 a day), the newest 4.8 hours ago. */
const fakeMessage = (n: number, ticketId: number, total: number) => {
  const at = iso(Date.now() - (total - n + 1) * 17_280_000);

  return {
    id: FIRST_ID + n,
    ticketId,
    body: n % 7 === 0 ? `linha um da mensagem ${n}\nlinha dois\nlinha três` : `mensagem ${n}`,
    fromMe: n % 3 === 0,
    read: true,
    ack: n % 3 === 0 ? 4 : 0,
    mediaType: 'chat',
    mediaUrl: null,
    mediaName: null,
    isDeleted: false,
    isEdited: false,
    isPrivate: false,
    source: n % 3 === 0 ? 'agent' : 'contact',
    userId: null,
    errorCode: null,
    errorMessage: null,
    quotedMsg: null,
    contact: null,
    createdAt: at,
    updatedAt: at,
  };
};

const renderedRows = (list: Locator, selector: string) => list.locator(selector).count();

/** where a row sits inside the scroll area, in px from its top (null when not drawn) */
const offsetInList = (list: Locator, testId: string) =>
  list.evaluate((el, id) => {
    const row = el.querySelector(`[data-testid="${id}"]`);

    return row ? row.getBoundingClientRect().top - el.getBoundingClientRect().top : null;
  }, testId);

const isInView = (list: Locator, testId: string) =>
  list.evaluate((el, id) => {
    const row = el.querySelector(`[data-testid="${id}"]`);
    if (!row) return false;
    const box = row.getBoundingClientRect();
    const view = el.getBoundingClientRect();

    return box.bottom > view.top && box.top < view.bottom;
  }, testId);

const scrollTo = (list: Locator, where: 'top' | 'bottom' | number) =>
  list.evaluate((el, to) => {
    el.scrollTop = to === 'top' ? 0 : to === 'bottom' ? el.scrollHeight : to;
  }, where);

describe('long lists: 10,000 tickets and 5,000 messages keep a window of rows in the DOM', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let connectionId = 0;
  const id = unique();
  const connectionName = `Loja ${id}`;
  const customer = { number: `5531${String(Date.now()).slice(-9)}`, name: `Cliente ${id}` };
  const page = (): Page => opened.page;
  /** the pages of the lists the browser asked for */
  const ticketPagesAsked: number[] = [];
  const messagePagesAsked: number[] = [];

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Listas'));
    connectionId = await createSandboxConnection(token, connectionName);
    await pairSandbox(token, connectionId);
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('scrolls 10,000 assigned tickets with a window of rows and loads the next page near the end', async () => {
    const connection = { id: connectionId, name: connectionName };
    await page().route(
      (url) => url.pathname === '/api/tickets' && url.searchParams.get('status') === 'open',
      async (route: Route) => {
        const pageNumber = Number(new URL(route.request().url()).searchParams.get('pageNumber') ?? '1');
        ticketPagesAsked.push(pageNumber);
        const response = await route.fetch();
        // page 1 holds all 10,000; page 2 the last 40
        const tickets =
          pageNumber === 1
            ? Array.from({ length: TICKETS }, (_, i) => fakeTicket(i + 1, connection))
            : Array.from({ length: 40 }, (_, i) => fakeTicket(TICKETS + i + 1, connection));
        await route.fulfill({ response, json: { tickets, count: TICKETS + 40, hasMore: pageNumber === 1 } });
      },
    );
    await waitForSocketReady(opened);
    await page().getByTestId('menu-tickets').click();
    await page().getByTestId('tickets-subtab-assigned').click();
    const list = page().getByTestId('tickets-list-open');
    // 10,000 rows made and sent through the route: seconds on a loaded machine (CI failed at the default 5 s)
    await expect.poll(() => list.getAttribute('data-count'), { timeout: 30_000 }).toBe(String(TICKETS));
    const rowSelector = '[data-testid^="ticket-row-"][data-status]';
    await list.getByTestId(`ticket-row-${FIRST_ID + 1}`).waitFor();
    const atTop = await renderedRows(list, rowSelector);
    expect(atTop).toBeGreaterThan(3);
    expect(atTop).toBeLessThan(WINDOW);
    // the middle of the list: its rows are drawn, the first ones are gone
    const middle = await list.evaluate((el) => el.scrollHeight / 2);
    await scrollTo(list, middle);
    await expect.poll(() => list.locator('[data-testid="ticket-row-50000001"]').count()).toBe(0);
    const middleRow = list.locator(rowSelector).first();
    const n = (await idOfTestId(middleRow)) - FIRST_ID;
    expect(n).toBeGreaterThan(TICKETS / 4);
    expect(n).toBeLessThan((TICKETS * 3) / 4);
    expect(await renderedRows(list, rowSelector)).toBeLessThan(WINDOW);
    // the end: the last ticket is drawn and the next page is asked for
    await scrollTo(list, 'bottom');
    await expect.poll(() => isInView(list, `ticket-row-${FIRST_ID + TICKETS}`)).toBe(true);
    await expect.poll(() => list.getAttribute('data-count')).toBe(String(TICKETS + 40));
    expect(ticketPagesAsked).toContain(2);
    await scrollTo(list, 'bottom');
    await expect.poll(() => isInView(list, `ticket-row-${FIRST_ID + TICKETS + 40}`)).toBe(true);
    expect(await renderedRows(list, rowSelector)).toBeLessThan(WINDOW);
    await screenshot(page(), 'long-lists-tickets-en-light');
    await page().unroute((url) => url.pathname === '/api/tickets' && url.searchParams.get('status') === 'open');
  });

  it('opens a conversation of 5,000 messages at the bottom with day headers and a window of rows', async () => {
    await customerWrites(token, connectionId, customer.number, customer.name, `Olá ${id}`);
    await page().getByTestId('tickets-subtab-pending').click();
    const row = ticketRowOf(page().getByTestId('tickets-list-pending'), customer.name);
    await row.waitFor();
    const ticketId = await idOfTestId(row);
    await page().route(
      (url) => url.pathname === `/api/messages/${ticketId}`,
      async (route: Route) => {
        if (route.request().method() !== 'GET') {
          await route.fallback();

          return;
        }
        const pageNumber = Number(new URL(route.request().url()).searchParams.get('pageNumber') ?? '1');
        messagePagesAsked.push(pageNumber);
        const response = await route.fetch();
        const real = (await response.json()) as Record<string, unknown>;
        // page 1: the newest 5,000 (oldest first, as the API sends them); page 2: the 20 before them
        const total = MESSAGES + 20;
        const messages =
          pageNumber === 1
            ? Array.from({ length: MESSAGES }, (_, i) => fakeMessage(i + 21, ticketId, total))
            : Array.from({ length: 20 }, (_, i) => fakeMessage(i + 1, ticketId, total));
        await route.fulfill({ response, json: { ...real, messages, count: total, hasMore: pageNumber === 1 } });
      },
    );
    await page().getByTestId(`ticket-accept-${ticketId}`).click();
    await page().getByTestId('conversation').waitFor();
    const list = page().getByTestId('messages-list');
    await expect.poll(() => list.getAttribute('data-count')).toBe(String(MESSAGES));
    const bubbles = '[data-testid^="message-"][data-from-me]';
    // at the bottom: the newest message in view
    await expect.poll(() => isInView(list, `message-${FIRST_ID + MESSAGES + 20}`)).toBe(true);
    const count = await renderedRows(list, bubbles);
    expect(count).toBeGreaterThan(3);
    expect(count).toBeLessThan(WINDOW);
    const days = await list.getByTestId('messages-day').count();
    expect(days).toBeGreaterThan(0);
    expect(days).toBeLessThan(WINDOW / 10);
    await screenshot(page(), 'long-lists-conversation-en-light');
  });

  it('keeps the view when a message arrives while scrolled up, and follows it at the bottom', async () => {
    const list = page().getByTestId('messages-list');
    const before = Number(await list.getAttribute('data-count'));
    const middle = await list.evaluate((el) => Math.round(el.scrollHeight / 2));
    await scrollTo(list, middle);
    await page().waitForTimeout(300);
    const scrolled = await list.evaluate((el) => el.scrollTop);
    await customerWrites(token, connectionId, customer.number, customer.name, `Alguém aí? ${id}`);
    await expect.poll(() => list.getAttribute('data-count')).toBe(String(before + 1));
    await page().waitForTimeout(300);
    expect(Math.abs((await list.evaluate((el) => el.scrollTop)) - scrolled)).toBeLessThan(2);
    expect(await renderedRows(list, '[data-testid^="message-"][data-from-me]')).toBeLessThan(WINDOW);

    // back at the bottom, the next message is followed
    await scrollTo(list, 'bottom');
    await page().waitForTimeout(300);
    await customerWrites(token, connectionId, customer.number, customer.name, `Oi de novo ${id}`);
    await expect.poll(() => list.getAttribute('data-count')).toBe(String(before + 2));
    const newest = list.locator('[data-from-me="false"]').filter({ hasText: `Oi de novo ${id}` });
    await newest.waitFor();
    const testId = (await newest.getAttribute('data-testid')) ?? '';
    await expect.poll(() => isInView(list, testId)).toBe(true);
    await expect.poll(() => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(24);
  });

  it('loads the older page near the top and keeps what was on screen in place', async () => {
    const list = page().getByTestId('messages-list');
    const before = Number(await list.getAttribute('data-count'));
    // near the top without crossing the 50 px line: the oldest loaded message is drawn, nothing is asked yet
    await scrollTo(list, 120);
    const oldest = `message-${FIRST_ID + 21}`;
    await expect.poll(() => offsetInList(list, oldest)).not.toBeNull();
    await page().waitForTimeout(300);
    expect(messagePagesAsked).not.toContain(2);
    const shown = (await offsetInList(list, oldest)) ?? 0;
    // crossing it asks for page 2, which lands above without moving the oldest message on screen
    await list.evaluate((el) => {
      el.scrollTop -= 90;
    });
    await expect.poll(() => list.getAttribute('data-count')).toBe(String(before + 20));
    expect(messagePagesAsked).toContain(2);
    await page().waitForTimeout(300);
    // 90 px lower than before the scroll, as the scroll left it, with 20 rows now above it
    expect(Math.abs(((await offsetInList(list, oldest)) ?? 0) - (shown + 90))).toBeLessThan(3);
    expect(await list.evaluate((el) => el.scrollTop)).toBeGreaterThan(500);
    // the older page's rows are drawn above it once scrolled to
    await scrollTo(list, 'top');
    await expect.poll(() => isInView(list, `message-${FIRST_ID + 1}`)).toBe(true);
    expect(await renderedRows(list, '[data-testid^="message-"][data-from-me]')).toBeLessThan(WINDOW);
    expectNoPageErrors(opened);
  });
});
