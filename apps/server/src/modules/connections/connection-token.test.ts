import { randomBytes } from 'node:crypto';
import { generateApiToken, isStrongApiToken } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { isSealedSecret, lookupHash, openSecret } from '../../lib/secrets';

/**
 * Issue 20 items 3 and 5: a connection's API token is stored sealed with a keyed hash beside it (no clear
 * token in the database), generated on the server when none is named, refused when typed weak, and never
 * tells a company that another one uses a token.
 */

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const sql = async (text: string, values?: unknown[]) => (await server.database.executeSql(text, values)).rows as any[];

const strong = () => `Tk_${randomBytes(24).toString('base64url')}`;

const createConnection = (tenant: TTenant, body: Record<string, unknown>) =>
  server.request('POST', '/api/whatsapp', { token: tenant.token, body: { name: unique('Conn'), ...body } });

/** the stored row, checked to hold no clear token: sealed, hashed with the server's key */
const storedToken = async (id: number, plain: string | null) => {
  const [row] = await sql('select token, token_hash, channel_secret::text secrets from whatsapps where id = $1', [id]);
  if (plain === null) {
    expect(row).toMatchObject({ token: null, token_hash: null });
    return;
  }
  expect(isSealedSecret(row.token)).toBe(true);
  expect(JSON.stringify(row)).not.toContain(plain);
  expect(openSecret(row.token)).toBe(plain);
  expect(row.token_hash).toBe(lookupHash(plain));
};

/** the external API with a token: 409 ERR_WAPP_NOT_INITIALIZED means the token found its (unpaired) connection */
const apiWith = async (token: string) =>
  (
    await server.app.inject({
      method: 'POST',
      url: '/api/messages/send',
      headers: { authorization: `Bearer ${token}` },
      payload: { number: '5511999990000', body: 'hello' },
    })
  ).json().error as string;

describe('connection API tokens', () => {
  it('stores a typed token sealed and hashed, finds it by its hash, and replaces or removes it on update', async () => {
    const tenant = await server.createTenant('Tokens');
    const token = strong();
    const created = await createConnection(tenant, { token });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.token).toBe(token);
    await storedToken(created.body.id, token);
    expect(await apiWith(token)).toBe('ERR_WAPP_NOT_INITIALIZED');

    const next = strong();
    const changed = await server.request('PUT', `/api/whatsapp/${created.body.id}`, {
      token: tenant.token,
      body: { token: next },
    });
    expect(changed.body.token).toBe(next);
    await storedToken(created.body.id, next);
    expect(await apiWith(token)).toBe('ERR_WAPP_NOT_FOUND_FOR_TOKEN');
    expect(await apiWith(next)).toBe('ERR_WAPP_NOT_INITIALIZED');

    // the whole token sent back by the editor keeps it; an empty one removes it
    const kept = await server.request('PUT', `/api/whatsapp/${created.body.id}`, {
      token: tenant.token,
      body: { token: next, name: unique('Kept') },
    });
    expect(kept.body.token).toBe(next);
    const removed = await server.request('PUT', `/api/whatsapp/${created.body.id}`, {
      token: tenant.token,
      body: { token: '' },
    });
    expect(removed.body.token).toBeNull();
    await storedToken(created.body.id, null);
    expect(await apiWith(next)).toBe('ERR_WAPP_NOT_FOUND_FOR_TOKEN');
  });

  it('generates a 32-character token when none is named; null or empty means none', async () => {
    const tenant = await server.createTenant('Generated');
    const generated = await createConnection(tenant, {});
    expect(generated.status).toBe(201);
    const token = generated.body.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(isStrongApiToken(token)).toBe(true);
    await storedToken(generated.body.id, token);
    expect(await apiWith(token)).toBe('ERR_WAPP_NOT_INITIALIZED');
    // every connection a token of its own
    const another = await createConnection(tenant, {});
    expect(another.body.token).not.toBe(token);
    for (const none of [null, '']) {
      const res = await createConnection(tenant, { token: none });
      expect(res.body.token).toBeNull();
      await storedToken(res.body.id, null);
    }
  });

  it('refuses a weak typed token with ERR_WAPP_TOKEN_WEAK, on create and update, storing nothing', async () => {
    const tenant = await server.createTenant('Weak');
    const conn = await createConnection(tenant, { token: null });
    const weak = [
      '7',
      'short-token',
      'a'.repeat(40),
      '12345678901234567890123456789012',
      'abcdefghijklmnopqrstuvwxyzABCDEFGH',
      'password password password password',
      `${strong().slice(0, 20)}aaaaa${strong().slice(0, 12)}`,
    ];
    for (const token of weak) {
      const created = await createConnection(tenant, { token });
      expect(created, token).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_TOKEN_WEAK' } });
      expect(created.body.details).toEqual([{ path: 'token', message: 'weak' }]);
      const updated = await server.request('PUT', `/api/whatsapp/${conn.body.id}`, {
        token: tenant.token,
        body: { token },
      });
      expect(updated, token).toMatchObject({ status: 400, body: { error: 'ERR_WAPP_TOKEN_WEAK' } });
    }
    expect(await sql('select count(*)::int n from whatsapps where company_id = $1', [tenant.companyId])).toEqual([
      { n: 1 },
    ]);
    await storedToken(conn.body.id, null);
  });

  it('never tells a company that another one uses a token, even when saves race', async () => {
    const owner = await server.createTenant('Owner');
    const prober = await server.createTenant('Prober');
    const token = strong();
    expect((await createConnection(owner, { token })).status).toBe(201);
    const probe = await createConnection(prober, { token: null });

    // the other company's token answers exactly like a weak one, on create and on update
    const weakAnswer = (await createConnection(prober, { token: 'weak' })).body;
    const onCreate = await createConnection(prober, { token });
    expect(onCreate.status).toBe(400);
    expect(onCreate.body).toEqual(weakAnswer);
    const onUpdate = await server.request('PUT', `/api/whatsapp/${probe.body.id}`, {
      token: prober.token,
      body: { token },
    });
    expect(onUpdate.status).toBe(400);
    expect(onUpdate.body).toEqual(weakAnswer);

    // ten saves of one new token at once, from two companies: one wins, the others get that same answer
    const racing = generateApiToken();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => createConnection(i % 2 ? owner : prober, { token: racing })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 201)) {
      expect(lost.status).toBe(400);
      expect(lost.body).toEqual(weakAnswer);
    }
  });

  it('a token or Cloud API secret sealed under another key reads as unusable, never as a 500', async () => {
    const tenant = await server.createTenant('Other key');
    const foreign = () => `enc:v1:${randomBytes(60).toString('base64url')}`;
    const [row] = await sql(
      `insert into whatsapps (company_id, name, provider, token, token_hash, channel_config, channel_secret)
       values ($1, $2, 'cloud-api', $3, $4, $5::jsonb, $6::jsonb) returning id`,
      [
        tenant.companyId,
        unique('Foreign'),
        foreign(),
        randomBytes(32).toString('hex'),
        JSON.stringify({ phoneNumberId: '1234567890', businessAccountId: '9876543210' }),
        JSON.stringify({ accessToken: foreign(), appSecret: foreign(), verifyToken: foreign() }),
      ],
    );
    const list = await server.request('GET', '/api/whatsapp', { token: tenant.token });
    expect(list.status).toBe(200);
    expect(list.body[0]).toMatchObject({ token: null, channelConfig: { accessToken: expect.any(String) } });
    const editor = await server.request('GET', `/api/whatsapp/${row.id}`, {
      token: tenant.token,
      query: { session: 0 },
    });
    expect(editor.status).toBe(200);
    expect(JSON.stringify(editor.body)).not.toContain('enc:v1:');
    // a new token replaces the unreadable one
    const token = strong();
    const replaced = await server.request('PUT', `/api/whatsapp/${row.id}`, { token: tenant.token, body: { token } });
    expect(replaced.body.token).toBe(token);
  });
});
