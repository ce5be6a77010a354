import { generateApiToken, isStrongApiToken } from '@zelo/shared';
import { AppError } from '../../http/errors';
import { isUniqueViolation } from '../../db/pg-errors';
import { lookupHash, openSecret, sealSecret } from '../../lib/secrets';

/**
 * A connection's API token as stored (issue 20 items 3 and 5): `token` sealed, so the admin's editor and
 * the messages-API page can show it again, and `tokenHash` (a keyed hash) that the external API finds the
 * connection by. A token is generated on create when none is named; a typed one must be as strong as a
 * generated one (shared `isStrongApiToken`). A token that is weak or that cannot be used for any other
 * reason (another connection has it) gets one answer, ERR_WAPP_TOKEN_WEAK: nobody learns whether a token
 * is in use elsewhere — with generated tokens such a collision does not happen in practice.
 */
export type TStoredToken = { token: string | null; tokenHash: string | null };

/** a token as lists show it: never the secret itself */
export const maskToken = (plain: string | null) =>
  plain ? `********${plain.length > 12 ? plain.slice(-4) : ''}` : null;

/**
 * the plain token of a stored row (a legacy plain value opens as itself); null when it was sealed under
 * another key (ZELO_SECRET_KEY changed): no request can use it any more either, its hash was keyed with the old one
 */
export const openToken = (stored: string | null) => {
  if (!stored) return null;
  try {
    return openSecret(stored);
  } catch {
    return null;
  }
};

export const unusableToken = () =>
  new AppError('ERR_WAPP_TOKEN_WEAK', 'This token cannot be used: generate one', [{ path: 'token', message: 'weak' }]);

const stored = (plain: string): TStoredToken => ({ token: sealSecret(plain), tokenHash: lookupHash(plain) });

/** create: the named token (checked), none for `null`/`""`, a generated one when the body names none */
export const tokenToCreate = (incoming: string | null | undefined): TStoredToken => {
  if (incoming === undefined) return stored(generateApiToken());
  if (incoming === null || incoming === '') return { token: null, tokenHash: null };
  if (!isStrongApiToken(incoming)) throw unusableToken();

  return stored(incoming);
};

/**
 * update: undefined = unchanged, also for the masked value or the current token sent back (an old weak
 * token stays until it is replaced); `null`/`""` removes it; anything else must be strong.
 */
export const tokenToUpdate = (
  incoming: string | null | undefined,
  current: { token: string | null; tokenHash: string | null },
): TStoredToken | undefined => {
  if (incoming === undefined) return undefined;
  if (incoming === null || incoming === '') return { token: null, tokenHash: null };
  const plain = openToken(current.token);
  if (plain !== null && (incoming === maskToken(plain) || incoming === plain)) return undefined;
  if (!isStrongApiToken(incoming)) throw unusableToken();

  return stored(incoming);
};

/** a unique violation on the tokens' hash (two saves of one token racing), from pg or PGlite, through Drizzle */
export const isTokenCollision = (err: unknown) => isUniqueViolation(err, 'whatsapps_token_hash_unique');
