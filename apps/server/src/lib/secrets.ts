import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Tenant secrets at rest (prompt keys, voice keys, flow node keys, service accounts, webhook secrets, the
 * Cloud API's access token, app secret and verify token, the connections' API tokens):
 * AES-256-GCM under the server's key (config `secretKey`: ZELO_SECRET_KEY, else generated once into
 * DATA_DIR). A sealed value reads `enc:v1:<base64url(iv | tag | ciphertext)>`; a value without the prefix
 * is a legacy plain one and opens as itself. Reads send secrets masked; a masked value sent back = keep.
 */
const PREFIX = 'enc:v1:';
const MASK = '••••••';

let currentKey: Buffer | undefined;
let currentLookupKey: Buffer | undefined;

/** buildApp (and main, before the start-up sealing) sets the key; every later seal, open and hash uses it */
export const useSecretKey = (key: Buffer) => {
  if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  currentKey = key;
  // a key of its own for lookups, derived from the same secret: a hash never reuses the cipher's key
  currentLookupKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'zelo lookup hash v1', 32));
};

const key = () => {
  if (!currentKey) throw new Error('secrets key not configured (useSecretKey)');

  return currentKey;
};

/**
 * The keyed hash (HMAC-SHA256, hex) a secret is found by without storing it: the API tokens' `token_hash`.
 * Without ZELO_SECRET_KEY a stolen database cannot test guesses against it.
 */
export const lookupHash = (plain: string): string => {
  if (!currentLookupKey) throw new Error('secrets key not configured (useSecretKey)');

  return createHmac('sha256', currentLookupKey).update(plain, 'utf8').digest('hex');
};

export const isSealedSecret = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.startsWith(PREFIX);

/** the plain text sealed; an empty text stays empty (nothing to protect) */
export const sealSecret = (plain: string): string => {
  if (plain === '' || isSealedSecret(plain)) return plain;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);

  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
};

/** the plain text of a stored value; a legacy plain value reads as itself; a tampered one throws */
export const openSecret = (stored: string | null | undefined): string => {
  if (!stored) return '';
  if (!isSealedSecret(stored)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  if (raw.length < 28) throw new Error('sealed secret is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));

  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
};

/**
 * What a read shows of a secret: its well-known prefix (`sk-`), the mask, and at most the last 4
 * characters, only when the secret is long enough (12+) that they say nothing useful about it.
 */
export const maskSecret = (plain: string | null | undefined): string => {
  if (!plain) return '';
  const prefix = plain.startsWith('sk-') ? 'sk-' : '';
  const tail = plain.length >= 12 ? plain.slice(-4) : '';

  return `${prefix}${MASK}${tail}`;
};

/** a stored value (sealed or legacy plain) as reads show it */
export const maskStoredSecret = (stored: string | null | undefined): string => {
  try {
    return maskSecret(openSecret(stored));
  } catch {
    return MASK;
  }
};

export const isMaskedSecret = (value: unknown): boolean => typeof value === 'string' && value.includes(MASK);

/**
 * What to store when a form sends a secret back: nothing sent or the mask → keep the stored value;
 * an empty text → clear it; anything else → seal the new value.
 */
export const keepOrSeal = (incoming: string | null | undefined, storedSealed: string | null | undefined): string => {
  // a legacy plain value kept is sealed on the way
  if (incoming === undefined || isMaskedSecret(incoming)) return sealSecret(storedSealed ?? '');
  if (incoming === null || incoming === '') return '';

  return sealSecret(incoming);
};

/** each text field of a secrets object sealed (the Cloud API's `channel_secret`); sealed ones stay as they are */
export const sealSecretFields = (fields: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, sealSecret(String(value ?? ''))]));

/** each field opened (a legacy plain one reads as itself) */
export const openSecretFields = (fields: Record<string, unknown> | null | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(fields ?? {}).map(([name, value]) => [name, openSecret(typeof value === 'string' ? value : '')]),
  );
