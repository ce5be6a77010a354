import { CHANNEL_SECRET_MASK, CLOUD_API_SECRET_FIELDS, type TChannelProvider, V, ZCloudApiConfig } from '@zelo/shared';
import { AppError } from '../../http/errors';

/**
 * A connection's `channelConfig` as the API shows and takes it. For `cloud-api` the secrets
 * (CLOUD_API_SECRET_FIELDS) are kept apart in the `channel_secret` column and shown masked on every read:
 * CHANNEL_SECRET_MASK plus the last 4 characters when the secret is long enough (12+) for that to give
 * nothing away. A masked value sent back by the editor means "unchanged".
 */

type TStored = { provider: string; channelConfig: Record<string, unknown>; channelSecret: Record<string, unknown> };

const SECRET_FIELDS: readonly string[] = CLOUD_API_SECRET_FIELDS;

export const maskSecret = (value: string) => `${CHANNEL_SECRET_MASK}${value.length >= 12 ? value.slice(-4) : ''}`;

const isMasked = (value: unknown) => typeof value === 'string' && value.startsWith(CHANNEL_SECRET_MASK);

/** what every read of a connection shows */
export const shownChannelConfig = (row: TStored): Record<string, unknown> => {
  if (row.provider !== 'cloud-api') return row.channelConfig;
  const shown: Record<string, unknown> = { ...row.channelConfig };
  for (const field of SECRET_FIELDS) {
    const value = row.channelSecret?.[field];
    if (typeof value === 'string' && value) shown[field] = maskSecret(value);
  }

  return shown;
};

/**
 * What create and update store: validated with ZCloudApiConfig for `cloud-api` (ERR_CHANNEL_CONFIG with
 * the fields' errors), masked secrets taken from what is stored. Undefined: nothing to change.
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
  const merged: Record<string, unknown> = wasCloud ? { ...current.channelConfig, ...current.channelSecret } : {};
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
  const channelConfig: Record<string, unknown> = {};
  const channelSecret: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (SECRET_FIELDS.includes(key)) channelSecret[key] = String(value);
    else channelConfig[key] = value;
  }

  return { channelConfig, channelSecret };
};
