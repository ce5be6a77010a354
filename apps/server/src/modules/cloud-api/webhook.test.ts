import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../channels/cloud-api/signature';
import { startFakeGraph, type TFakeGraph } from '../../../test/fake-graph';
import type { TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { createCloudLine, storedByExternalId, type TCloudLine, until } from './cloud-api.fixtures';

let server: TTestServer;
let graph: TFakeGraph;
let tenant: TTenant;
let line: TCloudLine;

beforeAll(async () => {
  server = await startTestServer();
  graph = await startFakeGraph();
  tenant = await server.createTenant('Cloud');
  line = await createCloudLine(server, graph, tenant);
});
afterAll(async () => {
  await server.close();
  await graph.close();
});

const customer = () => `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

const count = async (sql: string, values: unknown[]) =>
  Number(((await server.database.executeSql(sql, values)).rows[0] as { n: string | number }).n);

const inboxRows = () => count('select count(*) as n from cloud_api_inbox where whatsapp_id = $1', [line.connectionId]);

/** POSTs a raw body with the given headers, like Meta would */
const post = (raw: string, headers: Record<string, string>) =>
  fetch(`${server.url}${line.webhookPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw,
  });

describe('webhook verification handshake', () => {
  it('answers hub.challenge as text/plain for the verify token, 403 otherwise, 404 for an unknown connection', async () => {
    const ok = await fetch(
      `${server.url}${line.webhookPath}?hub.mode=subscribe&hub.verify_token=${line.verifyToken}&hub.challenge=1158201444`,
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe('1158201444');

    const wrong = await fetch(
      `${server.url}${line.webhookPath}?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`,
    );
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).not.toContain('1');
    const mode = await fetch(
      `${server.url}${line.webhookPath}?hub.mode=unsubscribe&hub.verify_token=${line.verifyToken}&hub.challenge=1`,
    );
    expect(mode.status).toBe(403);
    const missing = await fetch(
      `${server.url}/api/channels/cloud-api/2000000000/webhook?hub.mode=subscribe&hub.verify_token=${line.verifyToken}&hub.challenge=1`,
    );
    expect(missing.status).toBe(404);
  });
});

describe('signed deliveries', () => {
  it('stores a text message once: contact, ticket and message, even when the webhook is replayed 3 times', async () => {
    const from = customer();
    const built = graph.messagePayload(
      line.number.phoneNumberId,
      from,
      { type: 'text', text: { body: 'Olá, ação! 😀' } },
      { name: 'Maria' },
    );
    for (let i = 0; i < 4; i++) {
      const res = await graph.deliver(line.number.phoneNumberId, built.payload);
      expect(res.status).toBe(200);
    }
    await until(
      'the message stored',
      async () => (await storedByExternalId(server, line.connectionId, built.id)).length > 0,
    );
    await until('the inbox drained', async () => (await inboxRows()) === 0);
    const stored = await storedByExternalId(server, line.connectionId, built.id);
    expect(stored).toHaveLength(1);
    expect(stored[0].body).toBe('Olá, ação! 😀');
    expect(
      await count('select count(*) as n from contacts where company_id = $1 and number = $2', [tenant.companyId, from]),
    ).toBe(1);
    const contact = (
      await server.database.executeSql('select name from contacts where company_id = $1 and number = $2', [
        tenant.companyId,
        from,
      ])
    ).rows[0] as { name: string };
    expect(contact.name).toBe('Maria');
    expect(
      await count('select count(*) as n from tickets where company_id = $1 and contact_id = $2', [
        tenant.companyId,
        stored[0].contact_id,
      ]),
    ).toBe(1);
    const page = await server.request('GET', `/api/messages/${stored[0].ticket_id}`, { token: tenant.token });
    expect(page.status).toBe(200);
    expect(page.body.messages.filter((m: { body: string }) => m.body === 'Olá, ação! 😀')).toHaveLength(1);
  });

  it('refuses a bad or missing signature with 401 and stores nothing', async () => {
    const built = graph.messagePayload(line.number.phoneNumberId, customer(), {
      type: 'text',
      text: { body: 'forged' },
    });
    const raw = JSON.stringify(built.payload);
    const before = await inboxRows();
    const forged = await post(raw, { 'x-hub-signature-256': signBody(raw, 'not-the-app-secret') });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: string }).error).toBe('ERR_WEBHOOK_SIGNATURE');
    expect((await post(raw, {})).status).toBe(401);
    expect((await post(raw, { 'x-hub-signature-256': 'sha256=zz' })).status).toBe(401);
    // the right signature over other bytes (re-serialised JSON) does not hold either
    const reserialised = JSON.stringify(built.payload, null, 1);
    expect((await post(reserialised, { 'x-hub-signature-256': signBody(raw, line.number.appSecret) })).status).toBe(
      401,
    );
    expect(await inboxRows()).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await storedByExternalId(server, line.connectionId, built.id)).toHaveLength(0);
  });

  it('answers malformed payloads with 400 or 200, never 500, and stores nothing from them', async () => {
    const bad = '{"object": "whatsapp_business_account", "entry": [';
    const res = await post(bad, { 'x-hub-signature-256': signBody(bad, line.number.appSecret) });
    expect(res.status).toBe(400);
    const empty = await post('', { 'x-hub-signature-256': signBody('', line.number.appSecret) });
    expect([400, 200]).toContain(empty.status);
    for (const shape of [
      {},
      [],
      { object: 'page' },
      { object: 'whatsapp_business_account', entry: 'x' },
      {
        object: 'whatsapp_business_account',
        entry: [
          {
            changes: [
              {
                field: 'messages',
                value: {
                  metadata: { phone_number_id: line.number.phoneNumberId },
                  messages: [{ id: 'wamid.x' }, 7, null],
                  statuses: [{ status: 'read' }],
                },
              },
            ],
          },
        ],
      },
    ]) {
      const raw = JSON.stringify(shape);
      const answer = await post(raw, { 'x-hub-signature-256': signBody(raw, line.number.appSecret) });
      expect(answer.status, raw).toBe(200);
    }
    await until('the inbox drained', async () => (await inboxRows()) === 0);
    expect(await storedByExternalId(server, line.connectionId, 'wamid.x')).toHaveLength(0);
    // the server still serves
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  });

  it('ignores a message for another phone number id', async () => {
    const built = graph.messagePayload(line.number.phoneNumberId, customer(), {
      type: 'text',
      text: { body: 'elsewhere' },
    });
    const value = built.payload.entry[0].changes[0].value as { metadata: { phone_number_id: string } };
    value.metadata.phone_number_id = '999999999999';
    expect((await graph.deliver(line.number.phoneNumberId, built.payload)).status).toBe(200);
    await until('the inbox drained', async () => (await inboxRows()) === 0);
    expect(await storedByExternalId(server, line.connectionId, built.id)).toHaveLength(0);
  });

  it('downloads media through the media id, and keeps the message with ERR_WAPP_DOWNLOAD_MEDIA when it can not', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const mediaId = graph.addMedia(line.number.phoneNumberId, png, 'image/png');
    const from = customer();
    const ok = await graph.customerSends(line.number.phoneNumberId, from, {
      type: 'image',
      image: { id: mediaId, mime_type: 'image/png', caption: 'foto' },
    });
    await until(
      'the picture stored',
      async () => (await storedByExternalId(server, line.connectionId, ok.externalId)).length > 0,
    );
    const [picture] = await storedByExternalId(server, line.connectionId, ok.externalId);
    expect(picture).toMatchObject({ media_type: 'image', body: 'foto', error_code: null });
    expect(picture.media_url).toBeTruthy();

    const lostId = graph.addMedia(line.number.phoneNumberId, png, 'image/png');
    graph.fault({ kind: 'status', status: 500 }, 100, new RegExp(`/download/${lostId}$`));
    const lost = await graph.customerSends(line.number.phoneNumberId, from, {
      type: 'document',
      document: { id: lostId, filename: 'nota.pdf', mime_type: 'application/pdf' },
    });
    await until(
      'the message without its file',
      async () => (await storedByExternalId(server, line.connectionId, lost.externalId)).length > 0,
      30_000,
    );
    const [kept] = await storedByExternalId(server, line.connectionId, lost.externalId);
    expect(kept.error_code).toBe('ERR_WAPP_DOWNLOAD_MEDIA');
    expect(kept.media_url).toBeNull();
    graph.clearFaults();
  });
});
