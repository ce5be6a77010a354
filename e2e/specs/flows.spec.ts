import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  screenshot,
  type TOpenedPage,
  waitForPath,
  waitForToast,
} from '../support/browser';
import { companyWithApiAdmin, createSandboxConnection, pairSandbox } from '../support/inbox';

/**
 * The flow builder end to end (issue 14 items 3, 5, 6), in Chromium, in Portuguese: a flow drawn on the canvas
 * (start → message → question `nome` → menu with two options → content / message), saved and reloaded; a phrase
 * campaign for it; the phrase typed by a customer in the simulator starts it, the answer fills `{{nome}}` and the
 * chosen option's branch runs; a flow exported by the ancestor imported unchanged; the editor's test run lighting
 * the nodes as they run.
 */

const FIXTURE = resolve(import.meta.dirname, '../fixtures/ancestor-flow.json');

type TFlowDoc = {
  nodes: { id: string; type: string; data: Record<string, unknown> }[];
  connections: { source: string; target: string; sourceHandle?: string | null }[];
};
type TFlowAnswer = { flow: { id: number; name: string; flow: TFlowDoc | null; variables: string[] } };

const chooseOption = async (page: Page, testId: string, optionTestId: string) => {
  // an MUI select: its visible button sits beside the hidden input carrying the test id
  await page.getByTestId(testId).locator('xpath=..').getByRole('combobox').click();
  await page.getByTestId(optionTestId).click();
};

/** Opens the palette and the dialog of a node type. */
const openNodeDialog = async (page: Page, type: string) => {
  await page.getByTestId('flow-palette').click();
  await page.getByTestId(`flow-add-${type}`).click();
};

/** The id of the last node of a type on the canvas. */
const nodeId = async (page: Page, type: string) =>
  (await page.getByTestId(`flow-node-${type}`).last().getAttribute('data-node-id')) ?? '';

const nodeById = (page: Page, id: string) => page.locator(`[data-node-id="${id}"]`);

/** Drags from a source handle to a node's target handle. */
const connect = async (page: Page, from: Locator, to: Locator) => {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) {
    throw new Error('a handle is not on screen');
  }
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 40, a.y + 20, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
};
const sourceOf = (page: Page, id: string) => nodeById(page, id).locator('.react-flow__handle.source').first();
const targetOf = (page: Page, id: string) => nodeById(page, id).locator('.react-flow__handle.target');

const fitView = (page: Page) => page.locator('.react-flow__controls-fitview').click();

/** A received message in the open conversation holding `text`. */
const received = (scope: Page | Locator, text: string) =>
  scope.getByTestId('sim-messages').locator('[data-direction="received"]').filter({ hasText: text });

describe('flow builder: draw, save, phrase trigger, import, test run', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let connectionId = 0;
  let flowId = 0;
  const id = unique();
  const flowName = `Atendimento ${id}`;
  const connectionName = `Loja ${id}`;
  const phrase = `Quero Comprar ${id}`;
  const page = () => opened.page;
  const loadDoc = async (fid: number) =>
    (await apiCall<TFlowAnswer>('GET', `/flowbuilder/flow/${fid}`, { token })).flow;

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Fluxos'));
    connectionId = await createSandboxConnection(token, connectionName);
    await pairSandbox(token, connectionId);
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'pt', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('draws start → message → question → menu (two options) → content, saves and reloads it', async () => {
    const p = page();
    await p.getByTestId('menu-flowbuilders').click();
    await waitForPath(p, '/flowbuilders');
    await p.getByTestId('flows-add').click();
    await p.getByTestId('flow-name-input').fill('A');
    await p.getByTestId('flow-name-save').click();
    await p.getByTestId('flow-name-dialog').getByText('Muito curto!').waitFor();
    await p.getByTestId('flow-name-input').fill(flowName);
    await p.getByTestId('flow-name-save').click();
    await expect.poll(() => new URL(p.url()).pathname, { timeout: 10_000 }).toMatch(/^\/flowbuilder\/\d+$/);
    flowId = Number(new URL(p.url()).pathname.split('/').pop());
    await p.getByTestId('flow-node-start').waitFor();
    await p.getByText('Desenhe seu fluxo').first().waitFor();

    await openNodeDialog(p, 'message');
    await p.getByTestId('flow-message-text').fill('Olá! Bem-vindo à loja.');
    await p.getByTestId('flow-dialog-message-save').click();
    await p.getByTestId('flow-node-message').waitFor();

    await openNodeDialog(p, 'question');
    // both fields are required
    await p.getByTestId('flow-dialog-question-save').click();
    await p.getByTestId('flow-dialog-question-dialog').getByText('Obrigatório').first().waitFor();
    await p.getByTestId('flow-question-message').fill('Qual é o seu nome?');
    await p.getByTestId('flow-question-answer-key').fill('nome');
    await p.getByTestId('flow-dialog-question-save').click();
    await p.getByTestId('flow-node-question').waitFor();

    await openNodeDialog(p, 'menu');
    await p.getByTestId('flow-menu-message').fill('Escolha uma opção,');
    // the {{variable}} list offers the question's answer key
    await p.getByTestId('flow-variable-nome').click();
    expect(await p.getByTestId('flow-menu-message').inputValue()).toBe('Escolha uma opção, {{nome}}');
    await p.getByTestId('flow-menu-option-1').fill('Comprar');
    await p.getByTestId('flow-menu-add-option').click();
    await p.getByTestId('flow-menu-option-2').fill('Suporte');
    await p.getByTestId('flow-dialog-menu-save').click();
    await p.getByTestId('flow-node-menu').waitFor();

    await openNodeDialog(p, 'singleBlock');
    await p.getByTestId('flow-card-add-message').click();
    await p.getByTestId('flow-card-0-text').fill('Obrigado, {{nome}}! Um vendedor já vai te atender.');
    await p.getByTestId('flow-dialog-singleBlock-save').click();
    await waitForToast(p, 'success', 'Conteúdo adicionada com sucesso!');
    await p.getByTestId('flow-node-singleBlock').waitFor();

    await openNodeDialog(p, 'message');
    await p.getByTestId('flow-message-text').fill('Suporte para {{nome}}: descreva o problema.');
    await p.getByTestId('flow-dialog-message-save').click();
    await expect.poll(() => p.getByTestId('flow-node-message').count(), { timeout: 10_000 }).toBe(2);

    await fitView(p);
    const ids = {
      start: '1',
      welcome: (await p.getByTestId('flow-node-message').first().getAttribute('data-node-id')) ?? '',
      question: await nodeId(p, 'question'),
      menu: await nodeId(p, 'menu'),
      content: await nodeId(p, 'singleBlock'),
      support: await nodeId(p, 'message'),
    };
    await connect(p, sourceOf(p, ids.start), targetOf(p, ids.welcome));
    await connect(p, sourceOf(p, ids.welcome), targetOf(p, ids.question));
    await connect(p, sourceOf(p, ids.question), targetOf(p, ids.menu));
    await connect(p, nodeById(p, ids.menu).getByTestId('flow-handle-a1'), targetOf(p, ids.content));
    await connect(p, nodeById(p, ids.menu).getByTestId('flow-handle-a2'), targetOf(p, ids.support));
    await expect.poll(() => p.locator('.react-flow__edge').count(), { timeout: 10_000 }).toBe(5);
    await p.getByTestId('flow-dirty').waitFor();
    await screenshot(p, 'flows-editor-pt-light');

    await p.getByTestId('flow-save').click();
    await waitForToast(p, 'success', 'Fluxo salvo com sucesso');
    await p.getByTestId('flow-dirty').waitFor({ state: 'detached' });

    const saved = await loadDoc(flowId);
    expect(saved.variables).toEqual(['nome']);
    expect(saved.flow?.nodes.map((n) => n.type).sort()).toEqual(
      ['menu', 'message', 'message', 'question', 'singleBlock', 'start'].sort(),
    );
    const edges = (saved.flow?.connections ?? []).map((e) => `${e.source}:${e.sourceHandle ?? ''}>${e.target}`).sort();
    expect(edges).toEqual(
      [
        `1:a>${ids.welcome}`,
        `${ids.welcome}:a>${ids.question}`,
        `${ids.question}:a>${ids.menu}`,
        `${ids.menu}:a1>${ids.content}`,
        `${ids.menu}:a2>${ids.support}`,
      ].sort(),
    );

    await p.reload();
    await p.getByTestId('flow-node-start').waitFor();
    await expect.poll(() => p.locator('.react-flow__node').count(), { timeout: 10_000 }).toBe(6);
    await expect.poll(() => p.locator('.react-flow__edge').count(), { timeout: 10_000 }).toBe(5);
    expect(await p.getByTestId('flow-dirty').count()).toBe(0);
    expectNoPageErrors(opened);
  });

  it('a phrase typed by a customer starts the flow; the answer fills {{nome}} and the chosen branch runs', async () => {
    const p = page();
    await p.getByTestId('menu-phrase-lists').click();
    await waitForPath(p, '/phrase-lists');
    await p.getByTestId('phrases-add').click();
    await p.getByTestId('phrase-save').click();
    // name, connection, flow and phrase are required
    await expect.poll(() => p.getByTestId('phrase-dialog').getByText('Obrigatório').count()).toBeGreaterThan(2);
    await p.getByTestId('phrase-name').fill(`Compras ${id}`);
    await chooseOption(p, 'phrase-whatsappId', `phrase-whatsappId-option-${connectionId}`);
    await chooseOption(p, 'phrase-flowId', `phrase-flowId-option-${flowId}`);
    await p.getByTestId('phrase-phrase').fill(phrase.toLowerCase());
    await p.getByTestId('phrase-save').click();
    await waitForToast(p, 'success', 'Frase criada com sucesso!');
    await p.getByText(`Compras ${id}`).waitFor();
    await screenshot(p, 'flows-phrase-lists-pt-light');

    await p.getByTestId('menu-simulator').click();
    await waitForPath(p, '/simulator');
    await p.getByTestId('sim-connection').selectOption(String(connectionId));
    await p.locator('[data-testid="sim-connection-status"][data-status="CONNECTED"]').waitFor();
    const number = `5511${String(Date.now()).slice(-8)}`;
    await p.getByTestId('sim-number').fill(number);
    await p.getByTestId('sim-name').fill('Maria Cliente');
    await p.getByTestId('sim-add-customer').click();
    const say = async (text: string) => {
      await p.getByTestId('sim-input').fill(text);
      await p.getByTestId('sim-send').click();
    };
    // the phrase in other case and with accents kept: a whole-message, case-insensitive match
    await say(phrase.toUpperCase());
    await received(p, 'Olá! Bem-vindo à loja.').waitFor({ timeout: 20_000 });
    await received(p, 'Qual é o seu nome?').waitFor();
    await say('Maria');
    await received(p, 'Escolha uma opção, Maria').waitFor({ timeout: 20_000 });
    await say('1');
    await received(p, 'Obrigado, Maria! Um vendedor já vai te atender.').waitFor({ timeout: 20_000 });
    expect(await received(p, 'Suporte para').count()).toBe(0);
    expect(await received(p, '{{nome}}').count()).toBe(0);
    await screenshot(p, 'flows-simulator-phrase-pt-light');
    expectNoPageErrors(opened);
  });

  it('imports a flow exported by the ancestor unchanged', async () => {
    const p = page();
    const created = await apiCall<{ id: number }>('POST', '/flowbuilder', { token, body: { name: `Importado ${id}` } });
    await p.goto(`/flowbuilder/${created.id}`);
    await p.getByTestId('flow-node-start').waitFor();
    await p.getByTestId('flow-import-input').setInputFiles(FIXTURE);
    await waitForToast(p, 'success', 'Fluxo importado: confira e salve');
    await expect.poll(() => p.locator('.react-flow__node').count(), { timeout: 10_000 }).toBe(9);
    await p.getByTestId('flow-save').click();
    await waitForToast(p, 'success', 'Fluxo salvo com sucesso');

    const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as TFlowDoc;
    const stored = await loadDoc(created.id);
    expect(stored.variables).toEqual(['nome']);
    // the server stores an interval typed as text ("5") as the number it means; everything else comes back as sent
    const numeric = (n: TFlowDoc['nodes'][number]) =>
      n.type === 'interval' ? { ...n.data, sec: Number(n.data.sec) } : n.data;
    expect(stored.flow?.nodes.map((n) => [n.id, n.type, n.data])).toEqual(
      fixture.nodes.map((n) => [n.id, n.type, numeric(n)]),
    );
    expect(stored.flow?.connections.map((e) => [e.source, e.sourceHandle, e.target])).toEqual(
      fixture.connections.map((e) => [e.source, e.sourceHandle, e.target]),
    );
    await p.reload();
    await expect.poll(() => p.locator('.react-flow__node').count(), { timeout: 10_000 }).toBe(9);
    await expect.poll(() => p.locator('.react-flow__edge').count(), { timeout: 10_000 }).toBe(8);
    await screenshot(p, 'flows-imported-pt-light');

    // a canvas holding a flow is replaced only when the user says so
    await p.getByTestId('flow-import-input').setInputFiles(FIXTURE);
    await p.getByText('Substituir o fluxo?').waitFor();
    await p.getByTestId('confirm-cancel').click();
    await p.getByText('Substituir o fluxo?').waitFor({ state: 'hidden' });
    await p.getByTestId('flow-import-input').setInputFiles(FIXTURE);
    await p.getByTestId('confirm-ok').click();
    await waitForToast(p, 'success', 'Fluxo importado: confira e salve');
    expectNoPageErrors(opened);
  });

  it('the test run opens the simulator beside the canvas and lights each node as it runs', async () => {
    const p = page();
    await p.goto(`/flowbuilder/${flowId}`);
    await p.getByTestId('flow-node-start').waitFor();
    const started = p.waitForResponse((r) => r.url().endsWith(`/flowbuilder/${flowId}/test-run`));
    await p.getByTestId('flow-test').click();
    const run = (await (await started).json()) as { runId: number };
    const panel = p.getByTestId('flow-test-panel');
    await received(panel, 'Qual é o seu nome?').waitFor({ timeout: 20_000 });
    const question = await nodeId(p, 'question');
    await expect.poll(() => nodeById(p, question).getAttribute('data-run-state')).toBe('waiting');
    expect(await nodeById(p, '1').getAttribute('data-run-state')).toBe('done');
    await panel.getByTestId('sim-input').fill('João');
    await panel.getByTestId('sim-send').click();
    await received(panel, 'Escolha uma opção, João').waitFor({ timeout: 20_000 });
    await panel.getByTestId('flow-test-variable-nome').filter({ hasText: 'João' }).waitFor();
    const menu = await nodeId(p, 'menu');
    await expect.poll(() => nodeById(p, menu).getAttribute('data-run-state')).toBe('waiting');
    expect(await nodeById(p, question).getAttribute('data-run-state')).toBe('done');
    await screenshot(p, 'flows-test-run-pt-light');
    await panel.getByTestId('sim-input').fill('2');
    await panel.getByTestId('sim-send').click();
    await received(panel, 'Suporte para João: descreva o problema.').waitFor({ timeout: 20_000 });
    const support = await nodeId(p, 'message');
    await expect.poll(() => nodeById(p, support).getAttribute('data-run-state')).toMatch(/running|done/);
    // closing the test ends it: its simulated customer and ticket are deleted (nothing stays in the inbox)
    const ended = p.waitForResponse(
      (r) => r.request().method() === 'DELETE' && r.url().endsWith(`/flowbuilder/run/${run.runId}`),
    );
    await panel.getByRole('button', { name: 'Fechar teste' }).click();
    expect((await ended).status()).toBe(204);
    await panel.waitFor({ state: 'hidden' });
    expectNoPageErrors(opened);
  });
});
