import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createUser, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TOpenedPage,
  screenshot,
  waitForPath,
  waitForSocketReady,
  waitForToast,
} from '../support/browser';
import { companyWithApiAdmin, createSandboxConnection, customerWrites, pairSandbox, until } from '../support/inbox';

/**
 * The tags screen and the kanban board (issue 11): a tag made a kanban lane through the tags dialog, then two
 * browsers of the same company on /kanban; a card dragged from "open" to the lane in the first moves in the
 * second.
 */

const dialog = (page: Page) => page.getByRole('dialog');

/** drags with the mouse, in steps, as a person does (dnd-kit starts a drag after 6 px) */
const drag = async (page: Page, fromTestId: string, toTestId: string) => {
  const from = await page.getByTestId(fromTestId).boundingBox();
  const to = await page.getByTestId(toTestId).boundingBox();
  if (!from || !to) {
    throw new Error(`nothing to drag from ${fromTestId} to ${toTestId}`);
  }
  await page.mouse.move(from.x + from.width / 2, from.y + 20);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + 30, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 12 });
  await page.mouse.up();
};

describe('tags screen and kanban board', () => {
  let browser: Browser;
  let first: TOpenedPage;
  let second: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let ticketId: number;
  let laneId: number;
  const id = unique();
  const laneName = `Doing ${id}`;
  const customer = { number: `5511${String(Date.now()).slice(-9)}`, name: `Kanban customer ${id}` };

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Kanban'));
    const colleague = { name: `Colleague ${id}`, email: `colleague-${id}@e2e.test`, password: 'Colleague-1' };
    await createUser(token, { ...colleague, profile: 'admin' });
    const connectionId = await createSandboxConnection(token, `Kanban ${id}`);
    await pairSandbox(token, connectionId);
    await customerWrites(token, connectionId, customer.number, customer.name, 'Quero mover este card');
    await until('the customer ticket', async () => {
      const list = await apiCall<{ tickets: { id: number; contact: { name: string } }[] }>(
        'GET',
        '/tickets?status=pending&showAll=true',
        { token },
      );
      ticketId = list.tickets.find((t) => t.contact.name === customer.name)?.id ?? 0;

      return ticketId > 0;
    });
    browser = await launchBrowser();
    first = await openPage(browser, { language: 'en', theme: 'light' });
    second = await openPage(browser, { language: 'pt', theme: 'dark' });
    await loginThroughUi(first.page, admin.email, admin.password);
    await loginThroughUi(second.page, colleague.email, colleague.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('creates a tag with the dialog (name checked, kanban switch for the admin) and edits it', async () => {
    const { page } = first;
    await page.getByTestId('menu-tags').click();
    await waitForPath(page, '/tags');
    await page.getByRole('heading', { name: 'Tags', level: 1 }).waitFor();
    await page.getByTestId('tags-add').click();
    await page.getByTestId('tag-name').fill('ab');
    await page.getByTestId('tag-save').click();
    await dialog(page).getByText('Message too short').waitFor();

    await page.getByTestId('tag-name').fill(`Draft ${id}`);
    await page.getByTestId('tag-color').fill('#1E88E5');
    await page.getByTestId('tag-kanban').check();
    await page.getByTestId('tag-save').click();
    await waitForToast(page, 'success', 'Tag saved successfully!');
    await dialog(page).waitFor({ state: 'detached' });
    await page.getByTestId(`tag-row-Draft ${id}`).waitFor();

    await page.getByTestId(`tag-edit-Draft ${id}`).click();
    expect(await page.getByTestId('tag-name').inputValue()).toBe(`Draft ${id}`);
    expect(await page.getByTestId('tag-kanban').isChecked()).toBe(true);
    await page.getByTestId('tag-name').fill(laneName);
    await page.getByTestId('tag-save').click();
    await waitForToast(page, 'success', 'Tag saved successfully!');
    const row = page.getByTestId(`tag-row-${laneName}`);
    await row.waitFor();
    expect(await page.getByTestId(`tag-count-${laneName}`).textContent()).toBe('0');
    await screenshot(page, 'tags-en-light');

    const tags = await apiCall<{ id: number; name: string; kanban: number; color: string }[]>('GET', '/tags/list', {
      token,
    });
    const lane = tags.find((t) => t.name === laneName);
    expect(lane).toMatchObject({ kanban: 1, color: '#1E88E5' });
    laneId = lane?.id ?? 0;
  });

  it('a card dragged from "open" to the lane in one browser moves in the other', async () => {
    for (const opened of [first, second]) {
      await opened.page.getByTestId('menu-kanban').click();
      await waitForPath(opened.page, '/kanban');
      await waitForSocketReady(opened);
      await opened.page.getByTestId('kanban-lane-open').waitFor();
    }
    const card = `kanban-card-${ticketId}`;
    for (const { page } of [first, second]) {
      await page.getByTestId('kanban-lane-open').getByTestId(card).waitFor();
      await page.getByTestId(`kanban-lane-${laneId}`).getByText(laneName).waitFor();
    }
    await screenshot(second.page, 'kanban-pt-dark-before');

    await drag(first.page, card, `kanban-lane-${laneId}`);
    await first.page.getByTestId(`kanban-lane-${laneId}`).getByTestId(card).waitFor();
    await second.page.getByTestId(`kanban-lane-${laneId}`).getByTestId(card).waitFor({ timeout: 10_000 });
    expect(await second.page.getByTestId('kanban-lane-open').getByTestId(card).count()).toBe(0);
    expect(await second.page.getByTestId(`kanban-count-lane-${laneId}`).textContent()).toBe('1');
    await screenshot(second.page, 'kanban-pt-dark-after');

    const ticket = await apiCall<{ tags: { id: number }[] }>('GET', `/tickets/${ticketId}`, { token });
    expect(ticket.tags.map((t) => t.id)).toEqual([laneId]);

    // "see ticket" opens the conversation
    await second.page.getByTestId(`kanban-see-${ticketId}`).click();
    await second.page.waitForURL((url) => /^\/tickets\/[\w-]{8,}$/.test(url.pathname));
    expectNoPageErrors(first);
    expectNoPageErrors(second);
  });

  it('is usable at 390 px: lanes side by side with horizontal scroll', async () => {
    const { page } = first;
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByTestId('kanban-lane-open').waitFor();
    const width = await page.getByTestId('kanban-lane-open').evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(390);
    expect(width).toBeGreaterThan(250);
    const scrolls = await page.getByTestId('kanban-lanes').evaluate((row) => row.scrollWidth > row.clientWidth);
    expect(scrolls).toBe(true);
    await screenshot(page, 'kanban-en-light-390');
  });
});
