import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiCall, type TCompanyAdmin, unique } from '../support/api';
import {
  expectNoPageErrors,
  inEachLook,
  launchBrowser,
  loginThroughUi,
  openPage,
  screenshot,
  type TOpenedPage,
  waitForSocketReady,
  waitForToast,
} from '../support/browser';
import { companyWithApiAdmin, idOfTestId, openNewConnectionEditor } from '../support/inbox';

/**
 * The provider choice of issue 4 on the connections page: a Cloud API connection made in the editor (its fields,
 * their validation, the masked secrets kept when saved again, the webhook URL to copy), checked against a fake
 * Graph API on loopback that only accepts the real access token; a WhatsApp Web (Baileys) connection with its own
 * actions and the pairing-code modal; the confirmation when a connection changes provider; pictures in pt and en,
 * light and dark.
 */

const MASK = '********';
const STATUSES = ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT'];

/** the buttons of the session column, by status (apps/web/src/features/connections/sessionActionList.ts) */
const BAILEYS_ACTIONS: Record<string, string[]> = {
  qrcode: ['qr', 'pair-phone'],
  DISCONNECTED: ['retry', 'newqr', 'pair-phone'],
  PAIRING: ['show-code', 'disconnect'],
  CONNECTED: ['disconnect'],
  TIMEOUT: ['disconnect'],
  OPENING: ['connecting'],
};
const CLOUD_ACTIONS: Record<string, string[]> = {
  CONNECTED: ['check', 'disconnect'],
  OPENING: ['connecting'],
  DISCONNECTED: ['check'],
  TIMEOUT: ['check'],
  qrcode: ['check'],
  PAIRING: ['check'],
};

type TGraphRequest = { method: string; path: string; authorization: string };

/**
 * A stand-in for graph.facebook.com: `GET /{version}/{phone-number-id}` answers the display number for the one
 * access token it knows and Meta's 401 (OAuthException 190) for any other, so the connection's status tells
 * which token the server really holds.
 */
const startFakeGraph = async (realToken: string, displayNumber: string) => {
  const requests: TGraphRequest[] = [];
  const server: Server = createServer((req, res) => {
    const authorization = String(req.headers.authorization ?? '');
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization });
    res.setHeader('content-type', 'application/json');
    if (authorization !== `Bearer ${realToken}`) {
      res.statusCode = 401;
      res.end(
        JSON.stringify({
          error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190, fbtrace_id: 'e2e' },
        }),
      );

      return;
    }
    const id = (req.url ?? '').split('?')[0].split('/').pop();
    res.end(JSON.stringify({ id, display_phone_number: displayNumber, verified_name: 'Zelo e2e' }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
};

const dialog = (page: Page) => page.getByTestId('connection-dialog');
const rowOf = (page: Page, name: string) => page.locator(`[data-testid^="connection-row-"][data-name="${name}"]`);
const statusOf = (page: Page, id: number) => page.getByTestId(`connection-status-${id}`);

/** Picks a provider in the editor's select (MUI: the combobox next to the hidden input). */
const chooseProvider = async (page: Page, provider: 'sandbox' | 'baileys' | 'cloud-api') => {
  await page.getByTestId('connection-provider').locator('xpath=..').getByRole('combobox').click();
  await page.getByTestId(`connection-provider-${provider}`).click();
  await expect.poll(() => page.getByTestId('connection-provider').inputValue()).toBe(provider);
};

/** The helper text under an input of the editor (MUI links it with aria-describedby). */
const helperOf = async (page: Page, testId: string) => {
  const describedBy = await page.getByTestId(testId).getAttribute('aria-describedby');
  expect(describedBy, `helper text of ${testId}`).toBeTruthy();

  return ((await page.locator(`[id="${describedBy}"]`).textContent()) ?? '').trim();
};

/** The session buttons of a row, as the suffixes of their test ids ('retry', 'pair-phone'…). */
const actionsOf = async (row: Locator, id: number) =>
  (
    await row
      .locator(`[data-testid^="connection-"][data-testid$="-${id}"]`)
      .evaluateAll((all) => all.map((el) => el.getAttribute('data-testid') ?? ''))
  )
    .map((testId) => testId.replace(/^connection-/, '').replace(/-\d+$/, ''))
    .filter((what) =>
      ['qr', 'pair-phone', 'show-code', 'retry', 'check', 'newqr', 'disconnect', 'connecting'].includes(what),
    )
    .sort();

/** A status and the buttons shown with it, read together (a session update may land between two reads). */
const statusAndActions = async (page: Page, id: number) => {
  const before = await statusOf(page, id).getAttribute('data-status');
  const actions = await actionsOf(page.getByTestId(`connection-row-${id}`), id);
  const after = await statusOf(page, id).getAttribute('data-status');

  return before === after ? { status: before ?? '', actions } : null;
};

describe('connection providers: Cloud API and WhatsApp Web in the editor and on the connections page', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let graph: Awaited<ReturnType<typeof startFakeGraph>>;
  const id = unique();
  const cloudName = `Oficial ${id}`;
  const baileysName = `Celular ${id}`;
  const secrets = {
    accessToken: `EAAGe2e${id}Zq7w`,
    appSecret: `app-secret-${id}-k9Lm`,
    verifyToken: `verify-${id}-Hub1`,
  };
  const ids = { phoneNumberId: '106540352242922', businessAccountId: '102290129340398' };
  const displayNumber = '+55 11 4002-8922';
  let cloudId = 0;
  let baileysId = 0;
  /** a secret as the server answers it after saving (12 characters or more: the mask and the last four) */
  const shown = (value: string) => `${MASK}${value.slice(-4)}`;

  beforeAll(async () => {
    ({ admin, token } = await companyWithApiAdmin('Provedores'));
    graph = await startFakeGraph(secrets.accessToken, displayNumber);
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'en', theme: 'light' });
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: inject('baseUrl') });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
    await graph?.close();
  });

  it('shows each provider its own fields: none for the simulator and WhatsApp Web, the Cloud API settings for the Cloud API', async () => {
    const { page } = opened;
    await waitForSocketReady(opened);
    await openNewConnectionEditor(page);
    await page.getByTestId('connection-name').waitFor();
    expect(await page.getByTestId('connection-provider').inputValue()).toBe('sandbox');
    expect(await page.getByTestId('connection-cloud-fields').count()).toBe(0);
    await chooseProvider(page, 'baileys');
    expect(await page.getByTestId('connection-cloud-fields').count()).toBe(0);
    await chooseProvider(page, 'cloud-api');
    await page.getByTestId('connection-cloud-fields').waitFor();
    for (const field of ['phoneNumberId', 'businessAccountId', 'accessToken', 'appSecret', 'verifyToken']) {
      await page.getByTestId(`connection-cloud-${field}`).waitFor();
    }
    // the secrets are password inputs
    for (const field of ['accessToken', 'appSecret', 'verifyToken']) {
      expect(await page.getByTestId(`connection-cloud-${field}`).getAttribute('type')).toBe('password');
    }
    // Graph URL and version wait folded under "advanced", with Meta's defaults
    expect(await page.getByTestId('connection-cloud-graphUrl').isVisible()).toBe(false);
    await page.getByTestId('connection-cloud-advanced').click();
    await page.getByTestId('connection-cloud-graphUrl').waitFor();
    expect(await page.getByTestId('connection-cloud-graphUrl').inputValue()).toBe('https://graph.facebook.com');
    expect(await page.getByTestId('connection-cloud-graphVersion').inputValue()).toBe('v21.0');
    // there is no webhook URL before the connection exists
    await page.getByTestId('connection-cloud-webhook-later').waitFor();
    expect(await page.getByTestId('connection-cloud-webhook-url').count()).toBe(0);
  });

  it('refuses empty and invalid ids and secrets with messages on the fields, before anything is sent', async () => {
    const { page } = opened;
    let posted = 0;
    const onRequest = (req: { method: () => string; url: () => string }) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/whatsapp')) {
        posted += 1;
      }
    };
    page.on('request', onRequest);
    await page.getByTestId('connection-name').fill(cloudName);
    await page.getByTestId('connection-cloud-businessAccountId').fill('12ab');
    await page.getByTestId('connection-cloud-graphVersion').fill('21');
    await page.getByTestId('connection-save').click();

    // an empty id is missing, a wrong one invalid
    await expect.poll(() => helperOf(page, 'connection-cloud-phoneNumberId')).toBe('Required');
    expect(await helperOf(page, 'connection-cloud-businessAccountId')).toBe('Invalid value');
    expect(await helperOf(page, 'connection-cloud-accessToken')).toBe('Required');
    expect(await helperOf(page, 'connection-cloud-appSecret')).toBe('Required');
    expect(await helperOf(page, 'connection-cloud-verifyToken')).toBe('Required');
    expect(await helperOf(page, 'connection-cloud-graphVersion')).toBe('Invalid value');
    expect(await page.getByTestId('connection-cloud-phoneNumberId').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('connection-cloud-phoneNumberId').scrollIntoViewIfNeeded();
    await screenshot(page, 'providers-cloud-errors-en-light');
    page.off('request', onRequest);
    expect(posted, 'nothing sent while the form is invalid').toBe(0);
  });

  it('creates the Cloud API connection with the typed settings, then shows its secrets masked and its webhook URL', async () => {
    const { page } = opened;
    await page.getByTestId('connection-cloud-phoneNumberId').fill(ids.phoneNumberId);
    await page.getByTestId('connection-cloud-businessAccountId').fill(ids.businessAccountId);
    for (const [field, value] of Object.entries(secrets)) {
      await page.getByTestId(`connection-cloud-${field}`).fill(value);
    }
    await page.getByTestId('connection-cloud-graphUrl').fill(graph.url);
    await page.getByTestId('connection-cloud-graphVersion').fill('v21.0');
    const [request] = await Promise.all([
      page.waitForRequest((req) => req.method() === 'POST' && req.url().endsWith('/api/whatsapp')),
      page.getByTestId('connection-save').click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({
      name: cloudName,
      provider: 'cloud-api',
      channelConfig: { ...ids, ...secrets, graphUrl: graph.url, graphVersion: 'v21.0' },
    });
    await waitForToast(page, 'success', 'Connection saved successfully!');

    // a new Cloud API connection stays in the editor, now editing it, with the webhook URL to paste into Meta's app
    const webhook = page.getByTestId('connection-cloud-webhook-url');
    await webhook.waitFor();
    cloudId = await idOfTestId(rowOf(page, cloudName));
    const url = `${inject('baseUrl')}/api/channels/cloud-api/${cloudId}/webhook`;
    expect(await webhook.inputValue()).toBe(url);
    expect(await webhook.getAttribute('readonly')).not.toBeNull();
    await page.getByTestId('connection-cloud-webhook-hint').waitFor();
    await page.getByTestId('connection-cloud-webhook-copy').click();
    await waitForToast(page, 'success', 'Webhook URL copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // the secrets come back masked: the mask and their last four characters, never the value
    for (const [field, value] of Object.entries(secrets)) {
      expect(await page.getByTestId(`connection-cloud-${field}`).inputValue(), field).toBe(shown(value));
      expect(await helperOf(page, `connection-cloud-${field}`)).toContain(`ends in ${value.slice(-4)}`);
    }
    const stored = await apiCall<{ channelConfig: Record<string, unknown> }>('GET', `/whatsapp/${cloudId}?session=0`, {
      token,
    });
    expect(JSON.stringify(stored), 'no secret in the editor read').not.toContain(secrets.accessToken);
    expect(await page.getByTestId('connection-cloud-phoneNumberId').inputValue()).toBe(ids.phoneNumberId);
    await page.getByTestId('connection-cloud-webhook-url').scrollIntoViewIfNeeded();
    await screenshot(page, 'providers-cloud-saved-en-light');
  });

  it('is checked against the Graph API with the real token: CONNECTED with its number, and no QR actions', async () => {
    const { page } = opened;
    await page.getByTestId('connection-cancel').click();
    await dialog(page).waitFor({ state: 'detached' });
    await page.locator(`[data-testid="connection-status-${cloudId}"][data-status="CONNECTED"]`).waitFor();
    expect(graph.requests.some((r) => r.path.includes(ids.phoneNumberId))).toBe(true);
    expect(graph.requests.at(-1)?.authorization).toBe(`Bearer ${secrets.accessToken}`);
    const row = page.getByTestId(`connection-row-${cloudId}`);
    await row.getByText(`+${displayNumber.replace(/\D/g, '')}`).waitFor();
    expect((await page.getByTestId(`connection-provider-${cloudId}`).textContent())?.trim()).toBe(
      'WhatsApp Cloud API (official)',
    );
    expect(await actionsOf(row, cloudId)).toEqual(['check', 'disconnect']);

    // Meta's verification handshake answers the challenge for the verify token the server holds
    const challenge = `ch-${id}`;
    const res = await fetch(
      `${inject('baseUrl')}/api/channels/cloud-api/${cloudId}/webhook?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(secrets.verifyToken)}&hub.challenge=${challenge}`,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(challenge);
  });

  it('saved again without retyping, keeps the real secrets: the masked values go back and Graph still gets the real token', async () => {
    const { page } = opened;
    await page.getByTestId(`connection-edit-${cloudId}`).click();
    await page.getByTestId('connection-cloud-accessToken').waitFor();
    expect(await page.getByTestId('connection-cloud-accessToken').inputValue()).toBe(shown(secrets.accessToken));
    await page.getByTestId('connection-greetingMessage').fill(`Olá! ${id}`);
    const [request] = await Promise.all([
      page.waitForRequest((req) => req.method() === 'PUT' && req.url().endsWith(`/api/whatsapp/${cloudId}`)),
      page.getByTestId('connection-save').click(),
    ]);
    // no confirmation: the provider did not change
    expect(request.postDataJSON()).toMatchObject({
      provider: 'cloud-api',
      channelConfig: {
        ...ids,
        accessToken: shown(secrets.accessToken),
        appSecret: shown(secrets.appSecret),
        verifyToken: shown(secrets.verifyToken),
      },
    });
    await waitForToast(page, 'success', 'Connection saved successfully!');
    await dialog(page).waitFor({ state: 'detached' });

    // "check connection" starts the session over with what the server stored
    const before = graph.requests.length;
    await page.getByTestId(`connection-check-${cloudId}`).click();
    await expect.poll(() => graph.requests.length, { timeout: 15_000 }).toBeGreaterThan(before);
    await page.locator(`[data-testid="connection-status-${cloudId}"][data-status="CONNECTED"]`).waitFor();
    expect(graph.requests.slice(before).map((r) => r.authorization)).toContain(`Bearer ${secrets.accessToken}`);
    expect(graph.requests.some((r) => r.authorization.includes(MASK))).toBe(false);
    const res = await fetch(
      `${inject('baseUrl')}/api/channels/cloud-api/${cloudId}/webhook?hub.mode=subscribe&hub.verify_token=${encodeURIComponent(secrets.verifyToken)}&hub.challenge=again`,
    );
    expect(await res.text()).toBe('again');
  });

  it('refuses a masked secret that was only partly edited, and a retyped wrong token shows DISCONNECTED with what to check', async () => {
    const { page } = opened;
    await page.getByTestId(`connection-edit-${cloudId}`).click();
    const tokenInput = page.getByTestId('connection-cloud-accessToken');
    await tokenInput.waitFor();
    // the end of the masked value edited in place (a click selects it all, so go to the end first)
    await tokenInput.click();
    await tokenInput.press('End');
    await tokenInput.press('Backspace');
    await page.getByTestId('connection-save').click();
    await expect
      .poll(() => helperOf(page, 'connection-cloud-accessToken'))
      .toBe('Type the whole new value, or leave the saved one as it was');
    // clicking a saved secret selects it: typing replaces it as a whole
    await page.getByTestId('connection-name').click();
    await tokenInput.click();
    await tokenInput.pressSequentially('not-the-token');
    expect(await tokenInput.inputValue()).toBe('not-the-token');
    const [request] = await Promise.all([
      page.waitForRequest((req) => req.method() === 'PUT' && req.url().endsWith(`/api/whatsapp/${cloudId}`)),
      page.getByTestId('connection-save').click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ channelConfig: { accessToken: 'not-the-token' } });
    await waitForToast(page, 'success', 'Connection saved successfully!');
    await dialog(page).waitFor({ state: 'detached' });

    const check = page.getByTestId(`connection-check-${cloudId}`);
    await check.click();
    await page.locator(`[data-testid="connection-status-${cloudId}"][data-status="DISCONNECTED"]`).waitFor();
    expect(graph.requests.at(-1)?.authorization).toBe('Bearer not-the-token');
    // the save restarted the session too: the state read together with its buttons once both runs ended
    await expect
      .poll(async () => statusAndActions(page, cloudId), { timeout: 20_000 })
      .toEqual({
        status: 'DISCONNECTED',
        actions: ['check'],
      });
    expect((await page.getByTestId(`connection-status-${cloudId}-note`).textContent())?.trim()).toBe(
      'Check the access token',
    );
  });

  it('creates a WhatsApp Web connection: its provider in the table and its own actions, never the Cloud API ones', async () => {
    const { page } = opened;
    await page.getByTestId('connections-add').click();
    await page.getByTestId('connection-name').fill(baileysName);
    await chooseProvider(page, 'baileys');
    const [request] = await Promise.all([
      page.waitForRequest((req) => req.method() === 'POST' && req.url().endsWith('/api/whatsapp')),
      page.getByTestId('connection-save').click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ name: baileysName, provider: 'baileys', channelConfig: {} });
    await waitForToast(page, 'success', 'Connection saved successfully!');
    await dialog(page).waitFor({ state: 'detached' });

    baileysId = await idOfTestId(rowOf(page, baileysName));
    expect((await page.getByTestId(`connection-provider-${baileysId}`).textContent())?.trim()).toBe(
      'WhatsApp Web (QR code)',
    );
    // no network here: the session never reaches WhatsApp, so whatever state the driver reports, its buttons fit it
    // (the e2e server gives up after one retry: OPENING, where both providers show the same spinner, ends)
    let seen: { status: string; actions: string[] } | null = null;
    await expect
      .poll(
        async () => {
          seen = await statusAndActions(page, baileysId);

          return seen !== null && STATUSES.includes(seen.status) && seen.status !== 'OPENING';
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const { status, actions } = seen as unknown as { status: string; actions: string[] };
    expect(status).not.toBe('CONNECTED');
    expect(actions).toEqual([...BAILEYS_ACTIONS[status]].sort());
    expect(actions).not.toContain('check');
    expect(CLOUD_ACTIONS[status]).not.toEqual(BAILEYS_ACTIONS[status]);
  });

  it('pairs WhatsApp Web by phone number: the number is checked, sent, and the code shown big', async () => {
    const { page } = opened;
    const code = await openPairingWithCode(page, baileysId);
    // the number goes as digits (ZPairingBody)
    expect(code.request).toEqual({ phoneNumber: '5511912345678' });
    const shown = page.getByTestId('pairing-code');
    expect(await shown.getAttribute('data-code')).toBe('K7QP2M9X');
    expect(await shown.getAttribute('aria-label')).toBe('Pairing code K7QP2M9X');
    await page.getByTestId('pairing-dialog').getByText('Link with phone number instead').waitFor();
    await screenshot(page, 'providers-pairing-code-en-light');
    await page.getByTestId('pairing-close').click();
    await page.getByTestId('pairing-dialog').waitFor({ state: 'detached' });
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  it('asks before a connection changes provider, and changes it only when confirmed', async () => {
    const { page } = opened;
    await page.getByTestId(`connection-edit-${baileysId}`).click();
    await page.getByTestId('connection-name').waitFor();
    await chooseProvider(page, 'sandbox');
    let puts = 0;
    const onRequest = (req: { method: () => string; url: () => string }) => {
      if (req.method() === 'PUT' && req.url().endsWith(`/api/whatsapp/${baileysId}`)) {
        puts += 1;
      }
    };
    page.on('request', onRequest);
    await page.getByTestId('connection-save').click();
    const confirm = page.getByRole('dialog', { name: 'Change the connection type?' });
    await confirm.getByText('The session restarts').waitFor();
    await confirm.getByText(`from WhatsApp Web (QR code) to Simulator`).waitFor();
    await page.getByTestId('confirm-cancel').click();
    await confirm.waitFor({ state: 'detached' });
    expect(puts).toBe(0);

    await page.getByTestId('connection-save').click();
    await confirm.waitFor();
    await page.getByTestId('confirm-ok').click();
    await waitForToast(page, 'success', 'Connection saved successfully!');
    await dialog(page).waitFor({ state: 'detached' });
    page.off('request', onRequest);
    expect(puts).toBe(1);
    await page.getByTestId(`connection-provider-${baileysId}`).filter({ hasText: 'Simulator' }).waitFor();
    const stored = await apiCall<{ provider: string }>('GET', `/whatsapp/${baileysId}`, { token });
    expect(stored.provider).toBe('sandbox');
    // back to WhatsApp Web for the pictures
    await apiCall('PUT', `/whatsapp/${baileysId}`, { token, body: { provider: 'baileys' } });
    await page.getByTestId(`connection-provider-${baileysId}`).filter({ hasText: 'WhatsApp Web' }).waitFor();
    expectNoPageErrors(opened);
  });

  it('pictures the connections, the Cloud API editor and the pairing code in pt and en, light and dark', async () => {
    const { page } = opened;
    await inEachLook(page, 'providers', async ({ name, check }) => {
      await page.goto('/connections');
      await page.locator(`[data-testid="connection-status-${cloudId}"][data-status="DISCONNECTED"]`).waitFor();
      await page.getByTestId(`connection-row-${baileysId}`).waitFor();
      await check();
      await screenshot(page, name('connections'));

      await page.getByTestId(`connection-edit-${cloudId}`).click();
      await page.getByTestId('connection-cloud-webhook-url').waitFor();
      await page.getByTestId('connection-cloud-advanced').click();
      await page.getByTestId('connection-cloud-graphUrl').waitFor();
      await page.getByTestId('connection-cloud-fields').scrollIntoViewIfNeeded();
      await check();
      await screenshot(page, name('cloud-editor'));
      await page.getByTestId('connection-cancel').click();
      await dialog(page).waitFor({ state: 'detached' });

      await openPairingWithCode(page, baileysId);
      await check();
      await screenshot(page, name('pairing-code'));
      await page.getByTestId('pairing-close').click();
      await page.getByTestId('pairing-dialog').waitFor({ state: 'detached' });
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    });
    expectNoPageErrors(opened);
  });

  /**
   * Opens the pairing modal of the Baileys row and asks for a code. There is no network to WhatsApp here, so the
   * list shows the session as DISCONNECTED (the state that offers "use number") and the pairing answer carries the
   * code as WhatsApp would give it; the request the page makes is returned for checking.
   */
  async function openPairingWithCode(page: Page, connectionId: number) {
    await page.route('**/api/whatsapp?**', async (route) => {
      const res = await route.fetch();
      const list = (await res.json()) as { id: number; status: string; qrcode: string }[];
      await route.fulfill({
        response: res,
        json: list.map((c) => (c.id === connectionId ? { ...c, status: 'DISCONNECTED', qrcode: '' } : c)),
      });
    });
    let request: unknown = null;
    await page.route(`**/api/whatsappsession/${connectionId}/pairing`, async (route) => {
      request = route.request().postDataJSON();
      await route.fulfill({ status: 200, json: { code: 'K7QP-2M9X' } });
    });
    await page.goto('/connections');
    const pair = page.getByTestId(`connection-pair-phone-${connectionId}`);
    await pair.click();
    const phone = page.getByTestId('pairing-phone');
    await phone.fill('123');
    await page.getByTestId('pairing-request').click();
    const describedBy = await phone.getAttribute('aria-describedby');
    await page.locator(`[id="${describedBy}"][class*="Mui-error"]`).waitFor();
    expect(request, 'nothing sent for a short number').toBeNull();
    await phone.fill('+55 (11) 91234-5678');
    await page.getByTestId('pairing-request').click();
    await page.getByTestId('pairing-code').waitFor();

    return { request };
  }
});
