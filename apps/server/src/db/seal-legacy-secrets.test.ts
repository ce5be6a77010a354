import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody, SIGNATURE_HEADER } from '../channels/cloud-api/signature';
import { startTestServer, type TTestServer } from '../../test/harness';
import { isSealedSecret, lookupHash, openSecret, openSecretFields } from '../lib/secrets';
import { runMigrations } from './client';
import { sealLegacySecrets } from './seal-legacy-secrets';

/**
 * Issue 20 item 3: connections written before secrets were sealed (a clear API token without its hash, clear
 * Cloud API secrets) are sealed at start-up by the migration runner's `after` step — the same call main.ts
 * makes — once, even when several nodes start together; afterwards the legacy token still finds its
 * connection and Meta's webhook verification and signatures still hold.
 */

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sql = async (text: string, values?: unknown[]) => (await server.database.executeSql(text, values)).rows as any[];

/** a connection as the server wrote it before migration 0015: everything in clear, no token hash */
const legacyConnection = async (companyId: number, provider: 'sandbox' | 'cloud-api', token: string | null) => {
  const secrets = {
    accessToken: `EAAG${randomBytes(20).toString('hex')}`,
    appSecret: randomBytes(16).toString('hex'),
    verifyToken: `verify-${randomBytes(8).toString('hex')}`,
  };
  const cloud = provider === 'cloud-api';
  const [row] = await sql(
    `insert into whatsapps (company_id, name, provider, status, token, channel_config, channel_secret)
     values ($1, $2, $3, 'DISCONNECTED', $4, $5::jsonb, $6::jsonb) returning id`,
    [
      companyId,
      `Legacy ${randomBytes(4).toString('hex')}`,
      provider,
      token,
      JSON.stringify(cloud ? { phoneNumberId: '1234567890', businessAccountId: '9876543210' } : {}),
      JSON.stringify(cloud ? secrets : {}),
    ],
  );

  return { id: row.id as number, secrets };
};

const rowOf = async (id: number) =>
  (await sql('select token, token_hash, channel_secret from whatsapps where id = $1', [id]))[0] as {
    token: string | null;
    token_hash: string | null;
    channel_secret: Record<string, string>;
  };

describe('sealing rows written before secrets were sealed', () => {
  it('seals tokens and Cloud API secrets once, even with two nodes starting together, and they still work', async () => {
    const tenant = await server.createTenant('Legacy');
    // an old weak token ("7" was allowed) and a long one, a Cloud API connection without a token
    const weak = await legacyConnection(tenant.companyId, 'sandbox', '7');
    const longToken = `legacy-${randomBytes(12).toString('hex')}`;
    const cloud = await legacyConnection(tenant.companyId, 'cloud-api', longToken);
    const none = await legacyConnection(tenant.companyId, 'sandbox', null);

    // two nodes: both run the migrations and the start-up step at once
    await Promise.all([
      runMigrations(server.database, sealLegacySecrets),
      runMigrations(server.database, sealLegacySecrets),
    ]);

    for (const [conn, plain] of [
      [weak, '7'],
      [cloud, longToken],
    ] as const) {
      const row = await rowOf(conn.id);
      expect(isSealedSecret(row.token)).toBe(true);
      expect(row.token).not.toContain(plain.length > 1 ? plain : 'no such text');
      // sealed once: opening it gives the clear token, not another sealed value
      expect(openSecret(row.token)).toBe(plain);
      expect(row.token_hash).toBe(lookupHash(plain));
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const cloudRow = await rowOf(cloud.id);
    const stored = JSON.stringify(cloudRow.channel_secret);
    for (const clear of Object.values(cloud.secrets)) expect(stored).not.toContain(clear);
    for (const value of Object.values(cloudRow.channel_secret)) expect(isSealedSecret(value)).toBe(true);
    expect(openSecretFields(cloudRow.channel_secret)).toEqual(cloud.secrets);
    expect(await rowOf(none.id)).toMatchObject({ token: null, token_hash: null, channel_secret: {} });

    // a later start finds nothing left to seal and changes nothing
    const before = await sql('select id, token, channel_secret from whatsapps where company_id = $1 order by id', [
      tenant.companyId,
    ]);
    expect(await sealLegacySecrets(server.ctx.db)).toBe(0);
    expect(
      await sql('select id, token, channel_secret from whatsapps where company_id = $1 order by id', [
        tenant.companyId,
      ]),
    ).toEqual(before);

    // the legacy token still finds its connection (409: found, not connected), a wrong one does not (401)
    const send = (token: string) =>
      server.app.inject({
        method: 'POST',
        url: '/api/messages/send',
        headers: { authorization: `Bearer ${token}` },
        payload: { number: '5511999990000', body: 'hello' },
      });
    expect((await send(longToken)).json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect((await send('7')).json()).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED' });
    expect((await send(`${longToken}x`)).statusCode).toBe(401);

    // Meta's webhook: the verification handshake and a signed delivery still hold with the sealed secrets
    const path = `/api/channels/cloud-api/${cloud.id}/webhook`;
    const verified = await server.app.inject({
      method: 'GET',
      url: path,
      query: { 'hub.mode': 'subscribe', 'hub.verify_token': cloud.secrets.verifyToken, 'hub.challenge': 'c-123' },
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.body).toBe('c-123');
    const refused = await server.app.inject({
      method: 'GET',
      url: path,
      query: { 'hub.mode': 'subscribe', 'hub.verify_token': 'wrong', 'hub.challenge': 'c-123' },
    });
    expect(refused.statusCode).toBe(403);
    const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
    const signed = await server.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(body, cloud.secrets.appSecret) },
      payload: body,
    });
    expect(signed.statusCode).toBe(200);
    const forged = await server.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(body, 'not-the-secret') },
      payload: body,
    });
    expect(forged.statusCode).toBe(401);
  });
});
