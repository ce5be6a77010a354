import { ACCESS_TOKEN_TTL_SECONDS } from '@zelo/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens';

/** access tokens: signed, checked, and a token seen before answered from what its first check found */

const claims = { sub: 7, cid: 3, sid: '0b7d3c62-5d5e-4c3e-9d8e-2f1a6f0c9e11' };

afterEach(() => {
  vi.useRealTimers();
});

describe('access tokens', () => {
  it('answers a token seen before with its claims until it expires, then expired', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokens = createTokenService('a-secret-of-the-test');
    const token = tokens.signAccess(claims);
    expect(tokens.verifyAccess(token)).toMatchObject(claims);
    expect(tokens.verifyAccess(token)).toMatchObject(claims);
    vi.setSystemTime(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 - 1_000);
    expect(tokens.verifyAccess(token)).toMatchObject(claims);
    vi.setSystemTime(Date.now() + 2_000);
    expect(tokens.verifyAccess(token)).toBe('expired');
    expect(tokens.verifyAccess(token)).toBe('expired');
    // a service that never saw it finds the same
    expect(createTokenService('a-secret-of-the-test').verifyAccess(token)).toBe('expired');
  });

  it('refuses a forged token, one of another secret and one without the claims, whatever was seen before', () => {
    const tokens = createTokenService('a-secret-of-the-test');
    const token = tokens.signAccess(claims);
    expect(tokens.verifyAccess(token)).toMatchObject(claims);
    const [head, body, signature] = token.split('.');
    const otherBody = Buffer.from(JSON.stringify({ ...claims, cid: 4 })).toString('base64url');
    expect(tokens.verifyAccess(`${head}.${otherBody}.${signature}`)).toBe('invalid');
    expect(tokens.verifyAccess(`${head}.${body}.${signature.slice(0, -2)}xx`)).toBe('invalid');
    expect(tokens.verifyAccess(createTokenService('another-secret').signAccess(claims))).toBe('invalid');
    expect(tokens.verifyAccess(tokens.signAccess({ ...claims, sid: 5 } as never))).toBe('invalid');
    expect(tokens.verifyAccess('not.a.token')).toBe('invalid');
  });
});
