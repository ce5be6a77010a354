import {
  CHANNEL_SECRET_MASK,
  CLOUD_API_DEFAULT_GRAPH_URL,
  CLOUD_API_SECRET_FIELDS,
  type TChannelProvider,
  V,
  ZCloudApiConfig,
} from '@zelo/shared';
import { assertGraphUrl } from '../../channels/cloud-api/graph-client';
import { AppError } from '../../http/errors';
import { assertSecretRetyped } from '../../lib/secret-retype';
import { openSecret, openSecretFields, sealSecretFields } from '../../lib/secrets';

/**
 * A connection's `channelConfig` as the API shows and takes it. For `cloud-api` the secrets
 * (CLOUD_API_SECRET_FIELDS) are kept apart in the `channel_secret` column, each sealed with ZELO_SECRET_KEY
 * (lib/secrets.ts; a legacy plain value opens as itself), and shown masked on every read:
 * CHANNEL_SECRET_MASK plus the last 4 characters when the secret is long enough (12+) for that to give
 * nothing away. A masked value sent back by the editor means "unchanged".
 */

type TStored = { provider: string; channelConfig: Record<string, unknown>; channelSecret: Record<string, unknown> };

const SECRET_FIELDS: readonly string[] = CLOUD_API_SECRET_FIELDS;

export const maskSecret = (value: string) => `${CHANNEL_SECRET_MASK}${value.length >= 12 ? value.slice(-4) : ''}`;

const isMasked = (value: unknown) => typeof value === 'string' && value.startsWith(CHANNEL_SECRET_MASK);

/** the stored secrets opened; one sealed under another key is left out (so it must be typed again) */
const openedSecrets = (row: TStored) => {
  const opened: Record<string, string> = {};
  for (const [field, stored] of Object.entries(row.channelSecret ?? {})) {
    try {
      opened[field] = openSecretFields({ [field]: stored })[field];
    } catch {
      // ZELO_SECRET_KEY changed: nothing to keep
    }
  }

  return opened;
};

/** what every read of a connection shows */
export const shownChannelConfig = (row: TStored): Record<string, unknown> => {
  if (row.provider !== 'cloud-api') return row.channelConfig;
  const shown: Record<string, unknown> = { ...row.channelConfig };
  for (const field of SECRET_FIELDS) {
    const stored = row.channelSecret?.[field];
    if (typeof stored !== 'string' || !stored) continue;
    try {
      shown[field] = maskSecret(openSecret(stored));
    } catch {
      // sealed under another key (ZELO_SECRET_KEY changed): shown as set, to be typed again
      shown[field] = CHANNEL_SECRET_MASK;
    }
  }

  return shown;
};

/**
 * What create and update store: validated with ZCloudApiConfig for `cloud-api` (ERR_CHANNEL_CONFIG with
 * the fields' errors), masked secrets taken from what is stored. Undefined: nothing to change. The Graph URL
 * must be Meta's or allowed by the operator (ERR_GRAPH_URL_NOT_ALLOWED), and a changed Graph URL needs the
 * access token typed again (ERR_SECRET_RETYPE_REQUIRED): the stored one never goes to a new address.
 */
export const storedChannelConfig = (
  provider: TChannelProvider,
  input: Record<string, unknown> | undefined,
  current?: TStored,
): { channelConfig: Record<string, unknown>; channelSecret: Record<string, string> } | undefined => {
  const wasCloud = current?.provider === 'cloud-api';
  if (provider !== 'cloud-api') {
    // leaving the Cloud API forgets its secrets
    if (input === undefined) return wasCloud ? { channelConfig: {}, channelSecret: {} } : undefined;
    return { channelConfig: input, channelSecret: {} };
  }
  if (input === undefined && wasCloud) return undefined;
  const merged: Record<string, unknown> = wasCloud ? { ...current.channelConfig, ...openedSecrets(current) } : {};
  for (const [key, value] of Object.entries(input ?? {})) {
    if (SECRET_FIELDS.includes(key) && isMasked(value)) continue;
    merged[key] = value;
  }
  const parsed = ZCloudApiConfig.safeParse(merged);
  if (!parsed.success) {
    throw new AppError(
      'ERR_CHANNEL_CONFIG',
      'Invalid Cloud API settings',
      parsed.error.issues.map((issue) => ({
        path: ['channelConfig', ...issue.path.map(String)].join('.'),
        message: issue.code === 'invalid_type' ? V.required : issue.message,
      })),
    );
  }
  assertGraphUrl(parsed.data.graphUrl);
  if (wasCloud) {
    const sent = input?.accessToken;
    assertSecretRetyped({
      before:
        typeof current.channelConfig.graphUrl === 'string'
          ? current.channelConfig.graphUrl
          : CLOUD_API_DEFAULT_GRAPH_URL,
      after: parsed.data.graphUrl,
      hasStored: typeof current.channelSecret.accessToken === 'string' && current.channelSecret.accessToken !== '',
      keepsStored: sent === undefined || isMasked(sent),
      path: 'channelConfig.accessToken',
    });
  }
  const channelConfig: Record<string, unknown> = {};
  const channelSecret: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (SECRET_FIELDS.includes(key)) channelSecret[key] = String(value);
    else channelConfig[key] = value;
  }

  return { channelConfig, channelSecret: sealSecretFields(channelSecret) };
};
