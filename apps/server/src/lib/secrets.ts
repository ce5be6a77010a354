import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Tenant secrets at rest (prompt keys, voice keys, flow node keys, service accounts, webhook secrets):
 * AES-256-GCM under the server's key (config `secretKey`: ZELO_SECRET_KEY, else generated once into
 * DATA_DIR). A sealed value reads `enc:v1:<base64url(iv | tag | ciphertext)>`; a value without the prefix
 * is a legacy plain one and opens as itself. Reads send secrets masked; a masked value sent back = keep.
 */
const PREFIX = 'enc:v1:';
const MASK = '••••••';

let currentKey: Buffer | undefined;

/** buildApp sets the key from the configuration; every later seal and open uses it */
export const useSecretKey = (key: Buffer) => {
  if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
  currentKey = key;
};

const key = () => {
  if (!currentKey) throw new Error('secrets key not configured (useSecretKey)');

  return currentKey;
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
