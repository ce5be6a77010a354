import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from '../support/api';
import {
  expectNoPageErrors,
  launchBrowser,
  loginThroughUi,
  openPage,
  type TOpenedPage,
  screenshot,
} from '../support/browser';
import { companyWithApiAdmin, createSandboxConnection, pairSandbox } from '../support/inbox';

/**
 * Full-height screens during a company's trial (issue 22 B.2): the trial banner sits above them, and none runs past
 * the 1366×800 window — the page never scrolls, the composer's input and the kanban's lanes stay inside it.
 */
describe('full-height screens under the trial banner', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let flowId = 0;
  const page = () => opened.page;

  beforeAll(async () => {
    const { admin, token } = await companyWithApiAdmin('Altura');
    await pairSandbox(token, await createSandboxConnection(token, 'Simulador'));
    flowId = (await apiCall<{ id: number }>('POST', '/flowbuilder', { token, body: { name: 'Fluxo de altura' } })).id;
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'pt', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const overflow = () =>
    page().evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement;
      return root.scrollHeight - window.innerHeight;
    });

  it('tickets, kanban, chats, the simulator and the flow editor (and its node menu) fit the window below the banner', async () => {
    await page().getByTestId('trial-banner').waitFor();
    for (const [path, ready] of [
      ['/tickets', 'tickets-page'],
      ['/kanban', 'kanban-page'],
      ['/chats', 'chats-page'],
      ['/simulator', 'sim-customers-pane'],
    ] as const) {
      await page().goto(path);
      await page().getByTestId('trial-banner').waitFor();
      await page().getByTestId(ready).waitFor();
      expect(await overflow(), path).toBeLessThanOrEqual(0);
    }
    await page().goto(`/flowbuilder/${flowId}`);
    await page().getByTestId('trial-banner').waitFor();
    await page().getByTestId('flow-back').waitFor();
    expect(await overflow(), 'flow editor').toBeLessThanOrEqual(0);
    // the node menu fits the 800 px window: every entry named, the last ones (Ticket, TypeBot, OpenAI) reachable
    await page().getByTestId('flow-palette').click();
    for (const type of ['ticket', 'typebot', 'openai']) {
      const entry = page().getByTestId(`flow-add-${type}`);
      await entry.scrollIntoViewIfNeeded();
      const box = await entry.boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= 800, type).toBe(true);
    }
    expect(await page().getByTestId('flow-add-openai').textContent()).toContain('OpenAI');
    await screenshot(page(), 'full-height-flow-palette-trial');
    await page().getByTestId('flow-add-openai').click();
    expect(await overflow(), 'flow editor with a dialog').toBeLessThanOrEqual(0);
    await screenshot(page(), 'full-height-flow-editor-trial');
    expectNoPageErrors(opened);
  });

  it('on a phone (390 px) the simulator shows the customers, then the conversation the whole width, and back', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await page().goto('/simulator');
    await page().getByTestId('sim-number').fill('5511988887777');
    await page().getByTestId('sim-add-customer').click();
    const conversation = page().getByTestId('sim-conversation-pane');
    await page().getByTestId('sim-back').waitFor();
    expect((await conversation.boundingBox())?.width ?? 0).toBeGreaterThan(300);
    expect(await page().getByTestId('sim-customers-pane').isVisible()).toBe(false);
    await screenshot(page(), 'full-height-simulator-390');
    await page().getByTestId('sim-back').click();
    await page().getByTestId('sim-customer-5511988887777').waitFor();
    expect(await conversation.isVisible()).toBe(false);
    expect(await page().evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expectNoPageErrors(opened);
  });
});
