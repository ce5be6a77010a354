import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS } from '@zelo/shared';
import { createSigner, createVerifier, TokenError } from 'fast-jwt';

export type TAccessClaims = { sub: number; cid: number; sid: string };

export type TTokenService = ReturnType<typeof createTokenService>;

export const createTokenService = (secret: string) => {
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ACCESS_TOKEN_TTL_SECONDS * 1000 });
  const verify = createVerifier({ key: secret, algorithms: ['HS256'], cache: 1000 });

  return {
    signAccess: (claims: TAccessClaims) => sign(claims) as string,
    /** 'expired' and 'invalid' are answered differently (spec 1 §4) */
    verifyAccess: (token: string): TAccessClaims | 'expired' | 'invalid' => {
      try {
        const claims = verify(token) as TAccessClaims;
        if (typeof claims.sub !== 'number' || typeof claims.cid !== 'number' || typeof claims.sid !== 'string') {
          return 'invalid';
        }

        return claims;
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
