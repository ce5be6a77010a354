import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
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
  waitForToast,
} from '../support/browser';
import { companyWithApiAdmin, createSandboxConnection, customerWrites, pairSandbox, until } from '../support/inbox';

/**
 * Queue integrations (issue 14 item 2) in Chromium: the /queue-integration screen refuses a Typebot without its
 * slug, creates a webhook integration with a generated secret; put on a sandbox connection, a customer's message
 * reaches a receiver on loopback signed with that secret, and the integration's delivery log shows it delivered.
 */

type TReceived = { headers: IncomingHttpHeaders; body: string };

describe('Queue integrations: the screen, and a signed webhook delivery seen in the log', () => {
  let browser: Browser;
  let opened: TOpenedPage;
  let admin: TCompanyAdmin;
  let token: string;
  let connectionId = 0;
  let receiver: Server;
  let receiverUrl = '';
  const received: TReceived[] = [];
  /** the secret the dialog generated, read from its field before saving (never read back in full after) */
  let secret = '';
  const id = unique();
  const name = `Pedidos ${id}`;
  const customer = { number: `5531${String(Date.now()).slice(-8)}7`, name: `Cliente ${id}` };
  const page = (): Page => opened.page;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', () => done()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/pedidos`;
    ({ admin, token } = await companyWithApiAdmin('Integracoes'));
    connectionId = await createSandboxConnection(token, `Loja Integracoes ${id}`);
    await pairSandbox(token, connectionId);
    browser = await launchBrowser();
    opened = await openPage(browser, { language: 'pt', theme: 'light' });
    await loginThroughUi(opened.page, admin.email, admin.password);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => receiver?.close(done));
  });

  it('refuses a Typebot without its slug, then creates a webhook integration with a generated secret', async () => {
    await page().getByTestId('menu-queue-integration').click();
    await waitForPath(page(), '/queue-integration');
    await page().getByText('Nenhuma integração encontrada').waitFor();
    await page().getByTestId('integrations-add').click();
    await page().getByTestId('integration-type').locator('..').click();
    await page().getByTestId('integration-type-option-typebot').click();
    await page().getByTestId('integration-name').fill(`Bot ${id}`);
    await page().getByTestId('integration-urlN8N').fill('http://127.0.0.1:9/typebot');
    await page().getByTestId('integration-save').click();
    // the slug is required for a Typebot: nothing is saved
    await page().getByTestId('integration-dialog').getByText('Obrigatório').first().waitFor();
    expect(
      (await apiCall<{ queueIntegrations: unknown[] }>('GET', '/queueIntegration', { token })).queueIntegrations,
    ).toEqual([]);

    await page().getByTestId('integration-type').locator('..').click();
    await page().getByTestId('integration-type-option-webhook').click();
    await page().getByTestId('integration-name').fill(name);
    await page().getByTestId('integration-urlN8N').fill(receiverUrl);
    await page().getByTestId('integration-generate-secret').click();
    await expect.poll(() => page().getByTestId('integration-webhookSecret').inputValue()).toMatch(/^[0-9a-f]{32}$/);
    secret = await page().getByTestId('integration-webhookSecret').inputValue();
    await screenshot(page(), 'integrations-dialog-webhook');
    await page().getByTestId('integration-save').click();
    await waitForToast(page(), 'success', 'Integração adicionada com sucesso!');

    const list = await apiCall<{ queueIntegrations: { id: number; name: string; type: string }[] }>(
      'GET',
      '/queueIntegration',
      { token },
    );
    expect(list.queueIntegrations.map((i) => [i.name, i.type])).toEqual([[name, 'webhook']]);
    await page().getByTestId(`integration-row-${list.queueIntegrations[0]!.id}`).waitFor();
    expectNoPageErrors(opened);
  });

  it('sends the customer message to the receiver signed with the secret, and the log shows it delivered', async () => {
    const integration = (
      await apiCall<{ queueIntegrations: { id: number }[] }>('GET', '/queueIntegration', {
        token,
      })
    ).queueIntegrations[0]!;
    // editing shows the secret masked, never in full
    await page().getByTestId(`integration-edit-${integration.id}`).click();
    await expect.poll(() => page().getByTestId('integration-webhookSecret').inputValue()).toMatch(/••/);
    await page().getByTestId('integration-cancel').click();

    await apiCall('PUT', `/whatsapp/${connectionId}`, { token, body: { integrationId: integration.id } });
    await customerWrites(token, connectionId, customer.number, customer.name, 'Quero saber do meu pedido');
    await until('the receiver got the delivery', async () => received.length > 0, 20_000);
    const [delivery] = received;
    const ts = delivery!.headers['x-zelo-timestamp'] as string;
    expect(delivery!.headers['x-zelo-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(`${ts}.${delivery!.body}`).digest('hex')}`,
    );
    expect(JSON.parse(delivery!.body)).toMatchObject({
      event: 'message.received',
      message: { body: 'Quero saber do meu pedido', fromMe: false },
      contact: { number: customer.number },
    });

    await page().getByTestId(`integration-deliveries-${integration.id}`).click();
    const log = page().getByTestId('integration-deliveries-dialog');
    await log.getByText('Entregue').first().waitFor({ timeout: 15_000 });
    await screenshot(page(), 'integrations-delivery-log');
    expectNoPageErrors(opened);
  });
});
