import type { Browser, Page } from 'playwright-core';
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
  waitForSocketReady,
  waitForToast,
} from '../support/browser';
import { companyWithApiAdmin, createSandboxConnection, customerOutbox, pairSandbox, until } from '../support/inbox';

/**
 * Campaigns end to end (issue 12 items 4–6), in Chromium, in Portuguese: a contact list made through the API,
 * small intervals and a variable set on /campaigns-config, a campaign created in its dialog and started on a sandbox
 * connection, its report filling live, a cancel and a restart from the list, and the end: every recipient sent once,
 * as the simulated phones' outboxes show, with the variables replaced.
 */

type TItem = { id: number; name: string; number: string; isWhatsappValid: boolean | null };
type TCampaignRow = { id: number; name: string; status: string };
type TReport = {
  campaign: TCampaignRow;
  counts: { valid: number; sent: number; failed: number; queued: number };
};

const RECIPIENTS = 6;

/** the São Paulo wall-clock time the browser shows for `date` (the e2e browser runs in that zone) */
const saoPauloInput = (date: Date) => {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Sao_Paulo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';

  return `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}`;
};

const chooseOption = async (page: Page, testId: string, optionTestId: string) => {
  // an MUI select: its visible button sits beside the hidden input carrying the test id
  await page.getByTestId(testId).locator('xpath=..').getByRole('combobox').click();
  await page.getByTestId(optionTestId).click();
};

describe('campaigns: settings, dialog, live report, cancel, restart, each recipient once', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let connectionId = 0;
  let contactListId = 0;
  let campaignId = 0;
  const id = unique();
  const listName = `Clientes ${id}`;
  const campaignName = `Promo ${id}`;
  const base = `5521${String(Date.now()).slice(-7)}`;
  const people = Array.from({ length: RECIPIENTS }, (_, i) => ({ name: `Pessoa${i} ${id}`, number: `${base}${i}` }));
  const page = () => opened.page;
  const report = () => apiCall<TReport>('GET', `/campaigns/${campaignId}/report`, { token });

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Campanhas'));
    connectionId = await createSandboxConnection(token, `Loja ${id}`);
    await pairSandbox(token, connectionId);
    const list = await apiCall<{ id: number }>('POST', '/contact-lists', { token, body: { name: listName } });
    contactListId = list.id;
    for (const person of people) {
      await apiCall('POST', '/contact-list-items', {
        token,
        body: { ...person, email: '', contactListId },
      });
    }
    // the sandbox says every well-formed number is on WhatsApp; the check runs in the background
    await until(
      'the list items checked',
      async () => {
        const { contacts } = await apiCall<{ contacts: TItem[] }>(
          'GET',
          `/contact-list-items?contactListId=${contactListId}&pageNumber=1`,
          { token },
        );

        return contacts.length === RECIPIENTS && contacts.every((c) => c.isWhatsappValid === true);
      },
      30_000,
    );
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'pt', theme: 'dark' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sets small intervals and a variable on /campaigns-config', async () => {
    await page().getByTestId('menu-campaigns-config').click();
    await waitForPath(page(), '/campaigns-config');
    await page().getByRole('heading', { name: 'Configurações de campanhas', level: 1 }).waitFor();
    // 0–5 s before each message and 5 s more after every one: a run long enough to cancel midway
    await chooseOption(page(), 'campaign-settings-messageInterval', 'campaign-settings-messageInterval-5');
    await chooseOption(page(), 'campaign-settings-longerIntervalAfter', 'campaign-settings-longerIntervalAfter-1');
    await chooseOption(page(), 'campaign-settings-greaterInterval', 'campaign-settings-greaterInterval-5');

    await page().getByTestId('campaign-variable-key').fill('loja');
    await page().getByTestId('campaign-variable-value').fill('Centro');
    await page().getByTestId('campaign-variable-add').click();
    await page().getByTestId('campaign-variable-loja').waitFor();
    // a key already present is refused
    await page().getByTestId('campaign-variable-key').fill('loja');
    await page().getByText('Já existe uma variável com esta chave').waitFor();
    expect(await page().getByTestId('campaign-variable-add').isDisabled()).toBe(true);
    await page().getByTestId('campaign-variable-key').fill('');

    await page().getByTestId('campaign-settings-save').click();
    await waitForToast(page(), 'success', 'Configurações salvas');
    await screenshot(page(), 'campaigns-config-pt-dark');
    // the ancestor's rows, each value JSON text
    const rows = await apiCall<{ key: string; value: string }[]>('GET', '/campaign-settings', { token });
    const stored = Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value)]));
    expect(stored).toMatchObject({
      messageInterval: 5,
      longerIntervalAfter: 1,
      greaterInterval: 5,
      variables: [{ key: 'loja', value: 'Centro' }],
    });
  });

  it('creates a campaign in the dialog, starting now, with variables in its message', async () => {
    await page().getByTestId('menu-campaigns').click();
    await waitForPath(page(), '/campaigns');
    await page().getByText('Nenhuma campanha encontrada').waitFor();
    await page().getByTestId('campaigns-add').click();
    await page().getByTestId('campaign-name').fill(campaignName);
    await chooseOption(page(), 'campaign-whatsappId', `campaign-whatsappId-option-${connectionId}`);
    await chooseOption(page(), 'campaign-contactListId', `campaign-contactListId-option-${contactListId}`);
    await page().getByTestId('campaign-message1').fill('Olá ');
    await page().getByTestId('campaign-variable-nome').click();
    await page().getByTestId('campaign-message1').press('End');
    await page().getByTestId('campaign-message1').pressSequentially(', oferta da loja ');
    await page().getByTestId('campaign-variable-loja').click();
    expect(await page().getByTestId('campaign-message1').inputValue()).toBe('Olá {nome}, oferta da loja {loja}');
    // this minute: the start is not in the future, so the campaign starts at once
    await page().getByTestId('campaign-scheduledAt').fill(saoPauloInput(new Date()));
    await screenshot(page(), 'campaigns-dialog-pt-dark');
    await page().getByTestId('campaign-save').click();
    await waitForToast(page(), 'success', 'Operação realizada com sucesso');

    const row = page().locator('[data-testid^="campaign-row-"]').filter({ hasText: campaignName });
    await row.waitFor();
    campaignId = Number((await row.getAttribute('data-testid'))?.replace('campaign-row-', ''));
    expect(campaignId).toBeGreaterThan(0);
    // the dispatch's events move the row to "in progress"
    await page().locator(`[data-testid="campaign-row-${campaignId}"][data-status="EM_ANDAMENTO"]`).waitFor({
      timeout: 30_000,
    });
  });

  it('shows the report filling live, then cancels and restarts the campaign from the list', async () => {
    await waitForSocketReady(opened);
    await page().getByTestId(`campaign-row-${campaignId}`).click();
    await waitForPath(page(), `/campaign/${campaignId}/report`);
    await page()
      .getByRole('heading', { name: `Relatório de ${campaignName}` })
      .waitFor();
    await page().locator(`[data-testid="campaign-report-count-valid"][data-value="${RECIPIENTS}"]`).waitFor();
    // the first sends arrive through the campaign's events, without a reload
    await page().locator('[data-testid="campaign-report-count-sent"]:not([data-value="0"])').waitFor({
      timeout: 30_000,
    });
    // a sent row shows its furthest ack: sent, delivered (the simulator acks 3 at once) or read
    await page()
      .locator(
        '[data-testid^="recipient-state-"]:is([data-state="sent"], [data-state="delivered"], [data-state="read"])',
      )
      .first()
      .waitFor({ timeout: 15_000 });
    await screenshot(page(), 'campaign-report-running-pt-dark');

    await page().getByRole('link', { name: 'Campanhas', exact: true }).click();
    await waitForPath(page(), '/campaigns');
    await page().getByTestId(`campaign-cancel-${campaignId}`).click();
    await waitForToast(page(), 'success', 'Campanha cancelada');
    await page().locator(`[data-testid="campaign-row-${campaignId}"][data-status="CANCELADA"]`).waitFor();
    const atCancel = await report();
    expect(atCancel.campaign.status).toBe('CANCELADA');
    expect(atCancel.counts.sent).toBeLessThan(RECIPIENTS);

    // a cancelled campaign opens read-only with the reason and its restart
    await page().getByTestId(`campaign-edit-${campaignId}`).click();
    await page().locator('[data-testid="campaign-locked-reason"][data-reason="CANCELADA"]').waitFor();
    expect(await page().getByTestId('campaign-scheduledAt').isDisabled()).toBe(true);
    await page().getByTestId('campaign-cancel').click();

    await page().getByTestId(`campaign-restart-${campaignId}`).click();
    await waitForToast(page(), 'success', 'Campanha reiniciada');
    await page().locator(`[data-testid="campaign-row-${campaignId}"][data-status="EM_ANDAMENTO"]`).waitFor();
  });

  it('finishes with every recipient sent exactly once, the variables replaced', async () => {
    await page().getByTestId(`campaign-report-${campaignId}`).click();
    await waitForPath(page(), `/campaign/${campaignId}/report`);
    await page().locator('[data-testid="campaign-report-status"][data-status="FINALIZADA"]').waitFor({
      timeout: 80_000,
    });
    await page().locator(`[data-testid="campaign-report-count-sent"][data-value="${RECIPIENTS}"]`).waitFor({
      timeout: 15_000,
    });
    await expect
      .poll(async () => page().locator('[data-testid^="recipient-state-"][data-state="queued"]').count(), {
        timeout: 15_000,
      })
      .toBe(0);
    await screenshot(page(), 'campaign-report-finished-pt-dark');

    for (const person of people) {
      const received = await customerOutbox(token, connectionId, person.number);
      expect(
        received.map((m) => m.body),
        person.number,
      ).toEqual([`Olá ${person.name}, oferta da loja Centro`]);
    }
    expect((await report()).counts).toMatchObject({ valid: RECIPIENTS, sent: RECIPIENTS, failed: 0, queued: 0 });
    expectNoPageErrors(opened);
  });

  it('lays the list and the report out as cards at 390 px', async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await page().reload();
    const card = page().locator(`[data-testid^="recipient-row-"]`).first();
    await card.waitFor();
    expect(await card.evaluate((el) => el.tagName)).not.toBe('TR');
    const width = await page().evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page(), 'campaign-report-390-pt-dark');
    expectNoPageErrors(opened);
  });
});
