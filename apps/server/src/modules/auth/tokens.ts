import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS } from '@zelo/shared';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';

export type TAccessClaims = { sub: number; cid: number; sid: string };

export type TTokenService = ReturnType<typeof createTokenService>;

/** access tokens whose signature was checked, kept by their text: an agent's screens send one token many times */
const VERIFIED_KEPT = 2_000;

export const createTokenService = (secret: string) => {
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  const verify = createVerifier({ key: secret, algorithms: ['HS256'] });
  // token text → its claims and expiry (ms): a token seen before is answered without its signature checked
  // again (fast-jwt's own cache hashed each token to find it: 2 % of the server's time under the lists' load)
  const verified = new Map<string, { claims: TAccessClaims; expiresAt: number }>();

  return {
    signAccess: (claims: TAccessClaims) => sign(claims) as string,
    /** 'expired' and 'invalid' are answered differently (spec 1 §4) */
    verifyAccess: (token: string): TAccessClaims | 'expired' | 'invalid' => {
      const known = verified.get(token);
      if (known) {
        if (Date.now() < known.expiresAt) return known.claims;
        verified.delete(token);

        return 'expired';
      }
      try {
        const payload = verify(token) as TAccessClaims & { exp?: number };
        const { sub, cid, sid, exp } = payload;
        if (typeof sub !== 'number' || typeof cid !== 'number' || typeof sid !== 'string') return 'invalid';
        if (typeof exp === 'number') {
          // the oldest goes first when the map is full
          if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value as string);
          verified.set(token, { claims: payload, expiresAt: exp * 1000 });
        }

        return payload;
      } catch (err) {
        return err instanceof TokenError && err.code === TokenError.codes.expired ? 'expired' : 'invalid';
      }
    },
  };
};

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const safeEqualHex = (a: string, b: string) => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');

  return x.length === y.length && timingSafeEqual(x, y);
};

/** refresh tokens are opaque: `<session id>.<secret>`; only the secret's hash is stored */
export const newRefreshToken = (sessionId: string = randomUUID()) => {
  const secret = randomBytes(32).toString('base64url');

  return { sessionId, token: `${sessionId}.${secret}`, hash: sha256(secret) };
};

export const parseRefreshToken = (token: string | undefined) => {
  if (!token) return null;
  const [sessionId, secret] = token.split('.');
  if (!sessionId || !secret || sessionId.length !== 36) return null;

  return { sessionId, hash: sha256(secret) };
};
