import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { TOKEN_GUESSES } from './token-guesses';

/**
 * Issue 20 item 5: the outside tester found the token "7" in 8 guesses and sent 400 guesses in 5.3 s without a
 * 429. Unknown tokens are now counted per IP: after TOKEN_GUESSES.max in a minute the address is answered
 * 429 with Retry-After before any lookup, the right token included; other addresses and known tokens are not
 * slowed.
 */

let server: TTestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ env: { RATE_LIMITS: 'on' } });
  const tenant = await server.createTenant('Guesses');
  const res = await server.request('POST', '/api/whatsapp', { token: tenant.token, body: { name: unique('Api') } });
  token = res.body.token;
});
afterAll(() => server.close());

const send = async (ip: string, bearer: string) => {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/messages/send',
    remoteAddress: ip,
    headers: { authorization: `Bearer ${bearer}` },
    payload: { number: '5511999990000', body: 'hello' },
  });

  return {
    status: res.statusCode,
    error: (res.json() as { error?: string }).error,
    retryAfter: res.headers['retry-after'],
  };
};

describe('guessing API tokens', () => {
  it('answers 429 after a few unknown tokens from one address, even for the right token', async () => {
    const ip = '198.51.100.7';
    const answers: number[] = [];
    // the tester's loop: 400 guesses as fast as they go, the right token somewhere in the middle
    for (let i = 0; i < 400; i += 1) answers.push((await send(ip, i === 200 ? token : String(i))).status);
    expect(answers.slice(0, TOKEN_GUESSES.max)).toEqual(Array(TOKEN_GUESSES.max).fill(401));
    expect(answers.slice(TOKEN_GUESSES.max).every((status) => status === 429)).toBe(true);
    const blocked = await send(ip, token);
    expect(blocked).toMatchObject({ status: 429, error: 'ERR_TOO_MANY_REQUESTS' });
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(60);

    // another address is not affected: its right token is found (409: the connection is not paired)
    expect(await send('198.51.100.8', token)).toMatchObject({ status: 409, error: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('never counts a known token: an integration sending many requests is not blocked', async () => {
    const ip = '198.51.100.9';
    for (let i = 0; i < TOKEN_GUESSES.max * 3; i += 1) {
      expect((await send(ip, token)).status, `request ${i}`).toBe(409);
    }
    // and its few typing mistakes stay under the limit
    for (let i = 0; i < TOKEN_GUESSES.max - 1; i += 1) expect((await send(ip, `${token}x`)).status).toBe(401);
    expect((await send(ip, token)).status).toBe(409);
  });
});
