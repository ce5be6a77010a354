import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta signs every webhook POST with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(raw body, app secret)>`.
 * The HMAC is computed over the raw bytes as received (re-serialised JSON differs on emoji and accents)
 * and compared in constant time.
 */
export const SIGNATURE_HEADER = 'x-hub-signature-256';

export const signBody = (raw: Buffer | string, appSecret: string) =>
  `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;

export const isValidSignature = (raw: Buffer, header: string | string[] | undefined, appSecret: string) => {
  if (typeof header !== 'string' || !appSecret) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1].toLowerCase(), 'hex');
  const expected = createHmac('sha256', appSecret).update(raw).digest();

  return given.length === expected.length && timingSafeEqual(given, expected);
};
