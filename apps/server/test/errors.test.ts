import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TTenant } from './fixtures';
import { startTestServer, type TTestServer } from './harness';

let server: TTestServer;
let tenant: TTenant;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
});
afterAll(() => server.close());

/** a raw request: the harness's request() always sends valid JSON */
const raw = async (method: string, url: string, payload: string | Buffer, headers: Record<string, string>) => {
  const res = await server.app.inject({
    method: method as 'POST',
    url,
    payload,
    headers: { authorization: `Bearer ${tenant.token}`, ...headers },
  });

  return { status: res.statusCode, body: res.json() };
};

describe('malformed requests never answer 500', () => {
  it('malformed JSON → 400 ERR_VALIDATION', async () => {
    for (const payload of ['{"name": ', '{name: 1}', 'null x']) {
      const res = await raw('POST', '/api/users', payload, { 'content-type': 'application/json' });
      expect(res, payload).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
  });

  it('a body of another content type → 415 ERR_UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await raw('POST', '/api/users', 'name=a&email=b', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res).toMatchObject({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });
    const xml = await raw('PUT', '/api/settings/userRating', '<value>enabled</value>', {
      'content-type': 'application/xml',
    });
    expect(xml).toMatchObject({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('a JSON body that is not an object → 400 ERR_VALIDATION', async () => {
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const res = await raw('POST', '/api/users', payload, { 'content-type': 'application/json' });
      expect(res, payload).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
  });

  it('a body over the limit → 413 ERR_PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ value: 'x'.repeat(3 * 1024 * 1024) });
    const res = await raw('PUT', '/api/settings/asaas', big, { 'content-type': 'application/json' });
    expect(res).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
  });

  it('an unknown API route → 404 ERR_ROUTE_NOT_FOUND, for every method', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const res = await server.request(method, '/api/unknown', { token: tenant.token });
      expect(res, method).toMatchObject({ status: 404, body: { error: 'ERR_ROUTE_NOT_FOUND' } });
    }
    expect(await server.request('GET', '/api/unknown')).toMatchObject({
      status: 404,
      body: { error: 'ERR_ROUTE_NOT_FOUND' },
    });
  });

  it.each(['abc', '-1', '0', '1.5', '99999999999', '%20'])('the id %s → 400 ERR_VALIDATION', async (id) => {
    for (const path of [
      `/api/users/${id}`,
      `/api/companies/${id}`,
      `/api/companies/listPlan/${id}`,
      `/api/helps/${id}`,
    ]) {
      const res = await server.request('GET', path, { token: tenant.token });
      expect(res, path).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
  });

  it('a bad query string → 400 ERR_VALIDATION', async () => {
    for (const pageNumber of ['0', 'x', '-3']) {
      const res = await server.request('GET', '/api/users', { token: tenant.token, query: { pageNumber } });
      expect(res, pageNumber).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    }
  });
});

describe('rate limits', () => {
  let limited: TTestServer;
  beforeAll(async () => {
    limited = await startTestServer({ env: { RATE_LIMITS: 'on' } });
  });
  afterAll(() => limited.close());

  it('the 11th login within a minute from the same IP and e-mail → 429 ERR_TOO_MANY_REQUESTS', async () => {
    const body = { email: 'victim@example.com', password: 'wrong-password' };
    for (let i = 1; i <= 10; i += 1) {
      const res = await limited.request('POST', '/api/auth/login', { body });
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    const blocked = await limited.request('POST', '/api/auth/login', { body });
    expect(blocked).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_REQUESTS' } });
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('is counted per e-mail: another e-mail from the same IP still gets an answer', async () => {
    const res = await limited.request('POST', '/api/auth/login', {
      body: { email: 'someone-else@example.com', password: 'wrong-password' },
    });
    expect(res).toMatchObject({ status: 401, body: { error: 'ERR_USER_DONT_EXISTS' } });
  });
});
