import { AppError } from '../http/errors';

/**
 * A stored secret follows only the address it was typed for. Forms send secrets back masked ("keep the
 * stored one"); when the address the secret is sent to (an AI base URL, a Graph URL, a flow node's base URL)
 * changes in the same request, keeping it would hand the stored key to the new address — so the secret must
 * be typed again: ERR_SECRET_RETYPE_REQUIRED (400) on the secret's field.
 */

/** an address as compared: parsed (host lower-cased, default port dropped), without trailing slashes */
const normalized = (value: string | null | undefined) => {
  const text = (value ?? '').trim();
  if (!URL.canParse(text)) return text.replace(/\/+$/, '');
  const url = new URL(text);

  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}${url.search}`;
};

/** true when both name the same address; none (`''`, null, undefined) is the default one */
export const sameTarget = (a: string | null | undefined, b: string | null | undefined) =>
  normalized(a) === normalized(b);

export const assertSecretRetyped = (check: {
  /** the address the stored secret went to */
  before: string | null | undefined;
  /** the address it would go to now */
  after: string | null | undefined;
  /** a secret is stored (nothing stored: nothing to hand over) */
  hasStored: boolean;
  /** the request keeps the stored secret (sent masked, or not sent) */
  keepsStored: boolean;
  /** the secret's field, for the error's details */
  path: string;
}) => {
  if (!check.hasStored || !check.keepsStored || sameTarget(check.before, check.after)) return;
  throw new AppError('ERR_SECRET_RETYPE_REQUIRED', 'The address changed: type the secret again', [
    { path: check.path, message: 'required' },
  ]);
};
