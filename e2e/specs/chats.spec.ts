import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiCallError, apiCall, apiLogin, createUser, signUpCompany, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  fillLogin,
  launchBrowser,
  loginThroughUi,
  openPage,
  screenshot,
  type TOpenedPage,
  waitForPath,
  waitForSocketReady,
} from '../support/browser';

/**
 * Internal chat with three users of one company, each in a browser context of their own: Ana (the admin)
 * makes a chat with Bruno; they write to each other live; Caio, not a member, sees no chat, no count on the
 * top bar, and the chat's link answers "not found" (the API 404).
 * Then 21 chats make Caio's count exceed the list's first page: the top bar still counts them all.
 */

const dotShown = (page: Page) => page.getByTestId('menu-chats').locator('.MuiBadge-dot:not(.MuiBadge-invisible)');
const chatCount = async (page: Page) => Number(await page.getByTestId('chats').getAttribute('data-count'));
const bubbles = (page: Page) => page.getByTestId('chat-message');

describe('internal chat between members only', () => {
  let browser: Browser;
  let admin: TCompanyAdmin;
  let ana: TOpenedPage;
  let bruno: TOpenedPage;
  let caio: TOpenedPage;
  const id = unique();
  const b = { name: `Bruno ${id}`, email: `bruno-${id}@e2e.test`, password: 'bruno-pass', profile: 'user' as const };
  const c = { name: `Caio ${id}`, email: `caio-${id}@e2e.test`, password: 'caio-pass', profile: 'user' as const };
  const title = `Plantão ${id}`;
  let chatUuid = '';
  let caioId = 0;

  beforeAll(async () => {
    admin = await signUpCompany('Chat');
    const token = await apiLogin(admin.email, admin.password);
    await createUser(token, b);
    caioId = (await createUser(token, c)).id;
    browser = await launchBrowser();
    ana = await openPage(browser, { language: 'en', theme: 'light' });
    bruno = await openPage(browser, { language: 'pt', theme: 'dark' });
    caio = await openPage(browser, { language: 'es', theme: 'light' });
    await loginThroughUi(ana.page, admin.email, admin.password);
    await loginThroughUi(bruno.page, b.email, b.password);
    await loginThroughUi(caio.page, c.email, c.password);
    // Bruno works on a phone (the top bar's greeting gives way to its buttons there)
    await bruno.page.setViewportSize({ width: 390, height: 844 });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('Ana opens the chat screen; the dialog asks for a title and a member, then makes the chat', async () => {
    await Promise.all([waitForSocketReady(ana), waitForSocketReady(bruno), waitForSocketReady(caio)]);
    const { page } = ana;
    await page.getByTestId('menu-chats').click();
    await waitForPath(page, '/chats');
    await page.getByTestId('chats-page').and(page.locator('[data-layout="wide"]')).waitFor();
    await page.getByTestId('chats-empty').waitFor();
    await page.getByTestId('chat-add').click();
    await page.getByTestId('chat-save').click();
    await page.getByText('Please fill in the title of the chat.').waitFor();
    await page.getByText('Please select at least one user.').waitFor();

    await page.getByTestId('chat-title').fill(title);
    await page.getByTestId('chat-users').click();
    await page.getByTestId('chat-users').fill('Bruno');
    await page.getByRole('option', { name: b.name }).click();
    // Caio is offered too, but not picked; Ana herself is not offered (she is always a member)
    await page.getByTestId('chat-users').fill(admin.companyName);
    expect(await page.getByRole('option', { name: admin.companyName }).count()).toBe(0);
    await page.getByText('No users').waitFor();
    await page.getByTestId('chat-users').press('Escape');
    await page.getByTestId('chat-save').click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.waitForURL((url) => /^\/chats\/[0-9a-f-]{36}$/.test(url.pathname));
    chatUuid = new URL(page.url()).pathname.split('/')[2];
    await page.getByTestId('chat-conversation-title').filter({ hasText: title }).waitFor();
  });

  it('Bruno hears of the chat and of Ana’s message live: top-bar count, side-menu dot, the popover', async () => {
    await ana.page.getByTestId('chat-input').fill('Bom dia, Bruno!');
    await ana.page.keyboard.press('Enter');
    await bubbles(ana.page).filter({ hasText: 'Bom dia, Bruno!' }).waitFor();
    await expect.poll(() => chatCount(bruno.page), { timeout: 10_000 }).toBe(1);
    // at 390 px the side menu is a drawer: open it to see the dot
    await bruno.page.getByTestId('menu-toggle').click();
    await dotShown(bruno.page).waitFor();
    await bruno.page.keyboard.press('Escape');
    await bruno.page.getByTestId('chats').click();
    const item = bruno.page.getByTestId('chats-popover-list').getByText(title);
    await item.waitFor();
    await screenshot(bruno.page, 'chats-popover-pt-dark-390');
    await item.click();
    await waitForPath(bruno.page, `/chats/${chatUuid}`);
    await bruno.page.getByTestId('chats-page').and(bruno.page.locator('[data-layout="narrow"]')).waitFor();
    await bubbles(bruno.page).filter({ hasText: 'Bom dia, Bruno!' }).waitFor();
    // opening it marked it read: no count, no dot
    await expect.poll(() => chatCount(bruno.page), { timeout: 10_000 }).toBe(0);
    expect(await dotShown(bruno.page).count()).toBe(0);
  });

  it('they exchange messages live, each on their own side', async () => {
    await bruno.page.getByTestId('chat-input').fill('Bom dia, Ana!');
    await bruno.page.getByTestId('chat-send').click();
    await bubbles(ana.page).filter({ hasText: 'Bom dia, Ana!' }).waitFor();
    expect(await bubbles(ana.page).filter({ hasText: 'Bom dia, Ana!' }).getAttribute('data-mine')).toBe('false');
    expect(await bubbles(bruno.page).filter({ hasText: 'Bom dia, Ana!' }).getAttribute('data-mine')).toBe('true');
    await ana.page.getByTestId('chat-input').fill('Tudo certo por aí?');
    await ana.page.keyboard.press('Enter');
    await bubbles(bruno.page).filter({ hasText: 'Tudo certo por aí?' }).waitFor();
    // Ana's list shows the last message; Bruno, looking at it, has nothing unread
    await ana.page
      .getByTestId('chat-list')
      .getByText(/Tudo certo por aí\?/)
      .waitFor();
    await expect.poll(() => chatCount(bruno.page), { timeout: 10_000 }).toBe(0);
    await screenshot(ana.page, 'chats-conversation-en-light');
    await bruno.page.getByTestId('chats-tab-list').click();
    await bruno.page.getByText(title).waitFor();
    await screenshot(bruno.page, 'chats-list-pt-dark-390');
  });

  it('Caio, not a member, sees no chat and no count, and the chat’s link is not found', async () => {
    const { page } = caio;
    expect(await chatCount(page)).toBe(0);
    await page.getByTestId('chats').click();
    await page.getByTestId('chats-empty').waitFor();
    await page.keyboard.press('Escape');
    await page.goto(`/chats/${chatUuid}`);
    await page.getByTestId('chat-not-found').waitFor();
    await page.getByTestId('chats-empty').waitFor();
    expect(await page.getByText(title).count()).toBe(0);
    expect(await page.getByText('Bom dia').count()).toBe(0);
    // and the API says the same to him
    const token = await apiLogin(c.email, c.password);
    const refused = await apiCall('GET', `/chats/${chatUuid}/messages`, { token }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiCallError);
    expect((refused as ApiCallError).status).toBe(404);
  });

  it('Caio’s count covers all his chats, not only the 20 the list loads, and follows a message in an old one', async () => {
    const token = await apiLogin(admin.email, admin.password);
    const chatIds: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const chat = (await apiCall('POST', '/chats', {
        token,
        body: { title: `Turno ${i} ${id}`, users: [{ id: caioId }] },
      })) as { id: number };
      chatIds.push(chat.id);
      const texts = i === 0 ? ['um', 'dois'] : ['oi'];
      for (const message of texts) await apiCall('POST', `/chats/${chat.id}/messages`, { token, body: { message } });
    }
    // a fresh page lists the 20 newest chats (one unread each); the oldest holds two more
    const readies = caio.socketReadies();
    // his API login above ended the browser's session: the app itself goes to /login (a goto of our own could
    // race that navigation and be aborted), where he logs in again
    await caio.page.waitForURL(/\/login/, { timeout: 15_000 });
    await fillLogin(caio.page, c.email, c.password);
    await caio.page.getByTestId('greeting').waitFor({ timeout: 15_000 });
    await waitForSocketReady(caio, readies);
    await expect.poll(() => chatCount(caio.page), { timeout: 10_000 }).toBe(22);
    await dotShown(caio.page).waitFor();
    await apiCall('POST', `/chats/${chatIds[0]}/messages`, { token, body: { message: 'três' } });
    await expect.poll(() => chatCount(caio.page), { timeout: 10_000 }).toBe(23);
  });

  it('no page broke', () => {
    for (const opened of [ana, bruno]) expectNoPageErrors(opened);
    // Caio's page asked for a chat he may not see: its 404 is the expected answer, nothing else failed
    expect(caio.pageErrors).toEqual([]);
  });
});
