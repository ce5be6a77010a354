import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type TCompanyAdmin, unique } from '../support/api';
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
import {
  companyWithApiAdmin,
  createSandboxConnection,
  customerWrites,
  pairSandbox,
  waitForOutboxMessage,
} from '../support/inbox';

/**
 * The queues screen (spec 2 §2–§5): an admin creates a queue with its working hours, builds a two-level options
 * tree, assigns the queue to the sandbox connection, and a simulated customer walks the bot's menu down to a
 * level-2 option's message.
 */

type TQueue = { id: number; name: string; color: string; greetingMessage: string; schedules: TDay[] };
type TDay = { weekdayEn: string; startTime: string; endTime: string };

const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** the options of one level of the editor (`top`, or an option's id), each `[data-option]` node */
const level = (page: Page, parent: number | 'top') =>
  page.getByTestId(`queue-options-level-${parent}`).locator(':scope > [data-option]');

const optionIdOf = async (node: Locator) => {
  const testId = (await node.getAttribute('data-testid')) ?? '';
  const id = Number(testId.replace('queue-option-', ''));
  expect(id, testId).toBeGreaterThan(0);

  return id;
};

/** [number, title] of each option of a level, as shown */
const shownLevel = async (page: Page, parent: number | 'top') =>
  Promise.all(
    (await level(page, parent).all()).map(async (node) => [
      await node.getAttribute('data-option'),
      (await node.locator('p').first().textContent())?.trim(),
    ]),
  );

describe('queues and the chatbot options tree', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let connectionId = 0;
  let queue: TQueue;
  const id = unique();
  const queueName = `Vendas ${id}`;
  const greeting = `Bem-vindo à fila de vendas ${id}! Escolha uma opção:`;
  const options = {
    products: { title: 'Produtos', message: `Qual produto interessa? ${id}` },
    support: { title: 'Suporte', message: 'Fale com o suporte' },
    hours: { title: 'Horários', message: 'Abrimos todos os dias' },
    plans: { title: 'Planos', message: `Planos a partir de R$ 10 ${id}` },
    phones: { title: 'Aparelhos', message: `Temos iPhone e Android ${id}` },
  };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Filas'));
    // the queue's own working hours and out-of-hours message (spec 2 §7: scheduleType "queue")
    await apiCall('PUT', '/settings/scheduleType', { token, body: { value: 'queue' } });
    connectionId = await createSandboxConnection(token, `Central ${id}`);
    await pairSandbox(token, connectionId);
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('refuses a one-letter name with the queue message, then creates a queue with a palette colour and hours', async () => {
    const { page } = opened;
    await waitForSocketReady(opened);
    await page.getByTestId('menu-queues').click();
    await waitForPath(page, '/queues');
    await page.getByRole('heading', { name: 'Queues & Chatbot', level: 1 }).waitFor();
    await page.getByTestId('queues-table-empty').waitFor();

    await page.getByTestId('queues-add').click();
    // a new queue has no options yet
    await page.getByTestId('queue-tab-options').click();
    await page.getByTestId('queue-options-save-first').waitFor();
    await page.getByTestId('queue-tab-data').click();

    await page.getByTestId('queue-name').fill('V');
    await page.getByTestId('queue-save').click();
    await page.getByText('Name too short (at least 2 characters)').waitFor();

    await page.getByTestId('queue-name').fill(queueName);
    await page.getByTestId('queue-color-pick').click();
    await page.getByTestId('queue-color-swatch-004DCF').click();
    expect(await page.getByTestId('queue-color').inputValue()).toBe('#004DCF');
    await page.getByTestId('queue-order').fill('1');
    await page.getByTestId('queue-greeting').fill(greeting);
    await page.getByTestId('queue-out-of-hours').fill('Estamos fechados agora');
    // the prompt and integration lists are empty: "None"
    expect(await page.getByTestId('queue-promptId').locator('option').allTextContents()).toEqual(['None']);

    await page.getByTestId('queue-tab-hours').click();
    // the default week of spec 2 §3
    expect(await page.getByTestId('queue-hours-saturday-end').inputValue()).toBe('12:00');
    expect(await page.getByTestId('queue-hours-sunday-end').inputValue()).toBe('00:00');
    for (const day of WEEK) {
      await page.getByTestId(`queue-hours-${day}-start`).fill('00:00');
      await page.getByTestId(`queue-hours-${day}-end`).fill('23:59');
    }
    await screenshot(page, 'queues-hours-en-light');
    await page.getByTestId('queue-save').click();
    await waitForToast(page, 'success', 'Queue saved successfully!');
    await page.getByTestId('queue-save').waitFor({ state: 'detached' });

    const row = page.getByTestId(`queue-row-${queueName}`);
    await row.waitFor();
    const cells = (await row.locator('td').allTextContents()).map((t) => t.trim());
    expect(cells.slice(0, 5)).toEqual([queueName, '#004DCF', '1', '—', greeting]);

    const queues = await apiCall<TQueue[]>('GET', '/queue', { token });
    queue = queues.find((q) => q.name === queueName) as TQueue;
    expect(queue).toMatchObject({ color: '#004DCF', greetingMessage: greeting });
    expect(queue.schedules.map((d) => [d.weekdayEn, d.startTime, d.endTime])).toEqual(
      WEEK.map((day) => [day, '00:00', '23:59']),
    );
  });

  it('shows a queue another admin adds, live', async () => {
    const { page } = opened;
    const other = await apiCall<TQueue>('POST', '/queue', {
      token,
      body: { name: `Outra ${id}`, color: '#B80000', orderQueue: 2 },
    });
    await page.getByTestId(`queue-row-${other.name}`).waitFor();
    await apiCall('DELETE', `/queue/${other.id}`, { token });
    await page.getByTestId(`queue-row-${other.name}`).waitFor({ state: 'detached' });
  });

  it('builds a two-level options tree; deleting an option renumbers its level', async () => {
    const { page } = opened;
    await page.getByTestId(`queue-edit-${queueName}`).click();
    await page.getByTestId('queue-tab-options').click();
    await page.getByTestId('queue-options').waitFor();

    const addOption = async (open: () => Promise<void>, fields: { title: string; message: string }) => {
      await open();
      await page.getByTestId('queue-option-title').fill(fields.title);
      await page.getByTestId('queue-option-message').fill(fields.message);
      await page.getByTestId('queue-option-save').click();
      await waitForToast(page, 'success', 'Queue options saved!');
      await page.getByTestId('queue-option-save').waitFor({ state: 'detached' });
    };
    for (const key of ['products', 'support', 'hours'] as const) {
      await addOption(() => page.getByTestId('queue-options-add').click(), options[key]);
      const node = level(page, 'top').filter({ hasText: options[key].title });
      await node.waitFor();
      ids[key] = await optionIdOf(node);
    }
    expect(await shownLevel(page, 'top')).toEqual([
      ['1', 'Produtos'],
      ['2', 'Suporte'],
      ['3', 'Horários'],
    ]);

    for (const key of ['plans', 'phones'] as const) {
      await addOption(() => page.getByTestId(`queue-option-add-${ids.products}`).click(), options[key]);
      await level(page, ids.products).filter({ hasText: options[key].title }).waitFor();
    }
    expect(await shownLevel(page, ids.products)).toEqual([
      ['1', 'Planos'],
      ['2', 'Aparelhos'],
    ]);

    // edit: the message of a level-2 option
    const phones = level(page, ids.products).filter({ hasText: 'Aparelhos' });
    ids.phones = await optionIdOf(phones);
    await page.getByTestId(`queue-option-edit-${ids.phones}`).click();
    expect(await page.getByTestId('queue-option-title').inputValue()).toBe('Aparelhos');
    options.phones.message = `Temos iPhone, Android e tablets ${id}`;
    await page.getByTestId('queue-option-message').fill(options.phones.message);
    await page.getByTestId('queue-option-save').click();
    await waitForToast(page, 'success', 'Queue options saved!');
    await phones.filter({ hasText: 'tablets' }).waitFor();

    // delete "Suporte" (2): "Horários" becomes 2
    await page.getByTestId(`queue-option-delete-${ids.support}`).click();
    await page.getByText('Delete option 2 – Suporte?').waitFor();
    await page.getByTestId('confirm-ok').click();
    await waitForToast(page, 'success', 'Deleted successfully!');
    await expect
      .poll(() => shownLevel(page, 'top'))
      .toEqual([
        ['1', 'Produtos'],
        ['2', 'Horários'],
      ]);

    // lazily loaded: a collapsed option's sub-level is not shown, an expanded one is read from the server
    await page.getByTestId(`queue-option-expand-${ids.products}`).click();
    await page.getByTestId(`queue-options-level-${ids.products}`).waitFor({ state: 'detached' });
    await page.getByTestId(`queue-option-expand-${ids.products}`).click();
    expect(await shownLevel(page, ids.products)).toEqual([
      ['1', 'Planos'],
      ['2', 'Aparelhos'],
    ]);
    await screenshot(page, 'queues-options-en-light');
    await page.getByTestId('queue-cancel').click();
    await page.getByTestId('queue-cancel').waitFor({ state: 'detached' });

    const top = await apiCall<{ id: number; option: string; title: string }[]>(
      'GET',
      `/queue-options?queueId=${queue.id}&parentId=-1`,
      { token },
    );
    expect(top.map((o) => [o.option, o.title])).toEqual([
      ['1', 'Produtos'],
      ['2', 'Horários'],
    ]);
  });

  it('assigns the queue to the sandbox connection in its editor', async () => {
    const { page } = opened;
    await page.getByTestId('menu-connections').click();
    await waitForPath(page, '/connections');
    await page.getByTestId(`connection-edit-${connectionId}`).click();
    await page.getByTestId('connection-queues').locator('[role="combobox"]').click();
    await page.getByRole('option', { name: queueName }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('connection-save').click();
    await waitForToast(page, 'success', 'Connection saved successfully!');
    const connection = await apiCall<{ queues: { id: number }[] }>('GET', `/whatsapp/${connectionId}`, { token });
    expect(connection.queues.map((q) => q.id)).toEqual([queue.id]);
  });

  it('a customer receives the menu, picks option 1, then a level-2 option, and gets its message', async () => {
    const from = `55119${String(Date.now()).slice(-8)}`;
    await customerWrites(token, connectionId, from, 'Cliente Filas', 'Oi, boa tarde');
    const menu = await waitForOutboxMessage(token, connectionId, from, (m) => m.body.includes('*[ 1 ]* - Produtos'));
    expect(menu.body).toContain(greeting);
    expect(menu.body).toContain('*[ 2 ]* - Horários');
    expect(menu.body).not.toContain('Suporte');

    await customerWrites(token, connectionId, from, 'Cliente Filas', '1');
    const submenu = await waitForOutboxMessage(token, connectionId, from, (m) =>
      m.body.includes(options.products.message),
    );
    expect(submenu.body).toContain('*[ 1 ]* - Planos');
    expect(submenu.body).toContain('*[ 2 ]* - Aparelhos');
    expect(submenu.body).toContain('*[ 0 ]*');

    await customerWrites(token, connectionId, from, 'Cliente Filas', '2');
    const answer = await waitForOutboxMessage(token, connectionId, from, (m) => m.body.includes('tablets'));
    expect(answer.body).toContain(options.phones.message);
  });

  it('fits a phone (390 px) in Portuguese and dark mode: cards, the dialog and the tree', async () => {
    const { page } = opened;
    await page.evaluate(() => {
      localStorage.setItem('i18nextLng', 'pt');
      localStorage.setItem('preferredTheme', 'dark');
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/queues');
    await page.getByTestId(`queue-row-${queueName}`).waitFor();
    await page.getByRole('heading', { name: 'Filas & Chatbot', level: 1 }).waitFor();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'queues-list-pt-dark-phone');

    await page.getByTestId(`queue-edit-${queueName}`).click();
    await page.getByTestId('queue-tab-options').click();
    await page.getByTestId(`queue-option-expand-${ids.products}`).click();
    await level(page, ids.products).first().waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    const text = await page.evaluate(() => document.body.innerText);
    expect(text.toLowerCase()).toContain('opções do chatbot');
    expect(/\b(queues|validation|common)\.[a-zA-Z]+/.exec(text)?.[0], 'untranslated key').toBeUndefined();
    await screenshot(page, 'queues-options-pt-dark-phone');
    await page.getByTestId('queue-cancel').click();
    expectNoPageErrors(opened);
  });
});
