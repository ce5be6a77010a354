import {
  CHANNEL_PROVIDERS,
  CHANNEL_SECRET_MASK,
  CLOUD_API_DEFAULT_GRAPH_URL,
  CLOUD_API_DEFAULT_GRAPH_VERSION,
  CLOUD_API_SECRET_FIELDS,
  type TChannelProvider,
  type TConnection,
  type TConnectionBody,
  isStrongApiToken,
  ZCloudApiConfig,
  ZConnectionBody,
} from '@zelo/shared';
import { z } from 'zod';

/** The Cloud API settings as the editor holds them: typed text (the secrets masked when they came from the server). */
export type TCloudConfig = {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  graphUrl: string;
  graphVersion: string;
};
export type TCloudField = keyof TCloudConfig;
export type TCloudSecretField = (typeof CLOUD_API_SECRET_FIELDS)[number];

/** The editor's fields: what ZConnectionBody takes, numbers as typed text until validated. */
export type TConnectionFormValues = {
  name: string;
  provider: TChannelProvider;
  isDefault: boolean;
  token: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  expiresTicket: number | string;
  timeUseBotQueues: number | string;
  maxUseBotQueues: number | string;
  transferQueueId: number | null;
  timeToTransfer: number | string;
  closeOpenChatsAfterMinutes: number | string;
  queueIds: number[];
  promptId: number | null;
  integrationId: number | null;
  /** the flow a first contact starts, and the flow when no phrase matches (issue 14) */
  flowIdWelcome: number | null;
  flowIdNotPhrase: number | null;
  channelConfig: TCloudConfig;
};

/** the ids Meta gives the business number, shown first */
export const CLOUD_ID_FIELDS = ['phoneNumberId', 'businessAccountId'] as const;
/** password inputs: masked by the server on every read */
export const CLOUD_SECRET_FIELDS: readonly TCloudSecretField[] = CLOUD_API_SECRET_FIELDS;
/** under the "advanced" fold, with Meta's defaults */
export const CLOUD_ADVANCED_FIELDS = ['graphUrl', 'graphVersion'] as const;
export const CLOUD_FIELDS: readonly TCloudField[] = [
  ...CLOUD_ID_FIELDS,
  ...CLOUD_SECRET_FIELDS,
  ...CLOUD_ADVANCED_FIELDS,
];

/** Which provider settings (`channelConfig`) each transport asks for in the editor. */
export const PROVIDER_FIELDS: Record<TChannelProvider, readonly TCloudField[]> = {
  sandbox: [],
  baileys: [],
  'cloud-api': CLOUD_FIELDS,
};

export const CLOUD_DEFAULTS: Pick<TCloudConfig, 'graphUrl' | 'graphVersion'> = {
  graphUrl: CLOUD_API_DEFAULT_GRAPH_URL,
  graphVersion: CLOUD_API_DEFAULT_GRAPH_VERSION,
};

/** A secret as the server answers it: the mask and the last characters ('********' + 'abcd'). */
export const isMaskedSecret = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(CHANNEL_SECRET_MASK);

/** The visible end of a masked secret ('abcd' of '********abcd'); '' for anything else. */
export const maskedEnding = (value: unknown) => (isMaskedSecret(value) ? value.slice(CHANNEL_SECRET_MASK.length) : '');

const text = (value: unknown, fallback = '') => (typeof value === 'string' && value !== '' ? value : fallback);

export const toConnectionFormValues = (connection: TConnection | null): TConnectionFormValues => {
  const config = connection?.channelConfig ?? {};

  return {
    name: connection?.name ?? '',
    provider: connection?.provider ?? 'sandbox',
    isDefault: connection?.isDefault ?? false,
    token: connection?.token ?? '',
    greetingMessage: connection?.greetingMessage ?? '',
    complationMessage: connection?.complationMessage ?? '',
    outOfHoursMessage: connection?.outOfHoursMessage ?? '',
    ratingMessage: connection?.ratingMessage ?? '',
    expiresInactiveMessage: connection?.expiresInactiveMessage ?? '',
    expiresTicket: connection?.expiresTicket ?? 0,
    timeUseBotQueues: connection?.timeUseBotQueues ?? 0,
    maxUseBotQueues: connection?.maxUseBotQueues ?? 3,
    transferQueueId: connection?.transferQueueId ?? null,
    timeToTransfer: connection?.timeToTransfer ?? 0,
    closeOpenChatsAfterMinutes: connection?.closeOpenChatsAfterMinutes ?? 0,
    queueIds: connection?.queueIds ?? connection?.queues?.map((q) => q.id) ?? [],
    promptId: connection?.promptId ?? null,
    integrationId: connection?.integrationId ?? null,
    flowIdWelcome: connection?.flowIdWelcome ?? null,
    flowIdNotPhrase: connection?.flowIdNotPhrase ?? null,
    channelConfig: {
      phoneNumberId: text(config.phoneNumberId),
      businessAccountId: text(config.businessAccountId),
      accessToken: text(config.accessToken),
      appSecret: text(config.appSecret),
      verifyToken: text(config.verifyToken),
      graphUrl: text(config.graphUrl, CLOUD_DEFAULTS.graphUrl),
      graphVersion: text(config.graphVersion, CLOUD_DEFAULTS.graphVersion),
    },
  };
};

/**
 * The editor's schema: ZConnectionBody, and for a Cloud API connection its `channelConfig` through the shared
 * ZCloudApiConfig (errors at `channelConfig.<field>`). A discriminated union checks every field in one pass, so
 * an empty name and an empty phone number id are reported together. Other providers' settings are not checked
 * here: the request leaves them out (toConnectionRequest).
 */
export const ZConnectionForm = z.discriminatedUnion('provider', [
  ZConnectionBody.extend({ provider: z.literal('cloud-api'), channelConfig: ZCloudApiConfig }),
  ZConnectionBody.extend({
    provider: z.enum(CHANNEL_PROVIDERS.filter((p) => p !== 'cloud-api') as ['sandbox', 'baileys']),
  }),
]);
export type TConnectionForm = z.infer<typeof ZConnectionForm>;

/**
 * Secrets the user started to edit without replacing them: still beginning with the mask, but no longer the
 * value the server sent. Sent as is they would be stored as the new secret, so the editor refuses them.
 */
export const partlyEditedSecrets = (
  config: Partial<Record<TCloudField, unknown>>,
  original: TConnection | null,
): TCloudSecretField[] =>
  CLOUD_SECRET_FIELDS.filter((field) => {
    const value = config[field];

    return isMaskedSecret(value) && value !== original?.channelConfig?.[field];
  });

/**
 * The body sent. Cloud API: its validated settings, a secret still masked as the server sent it meaning
 * "unchanged". Sandbox and Baileys carry no settings: none on create; on update the stored ones are left alone,
 * except when the connection leaves the Cloud API, whose secrets are then cleared. An empty token reads as none.
 */
export const toConnectionRequest = (
  body: TConnectionForm,
  original: TConnection | null,
): TConnectionBody | Omit<TConnectionBody, 'channelConfig'> => {
  const token = body.token ? body.token : null;
  if (body.provider === 'cloud-api') {
    return { ...body, token, channelConfig: { ...body.channelConfig } };
  }
  const { channelConfig: _unused, ...rest } = body;
  if (!original || original.provider === 'cloud-api') {
    return { ...rest, token, channelConfig: {} };
  }

  return { ...rest, token };
};

/**
 * The token field as the editor checks it before saving (issue 20 item 5): empty (none), the value the
 * server sent (the masked or the admin's full token: unchanged, an old weak one included) or a new token
 * as strong as a generated one. The server checks the same with the shared `isStrongApiToken`.
 */
export const isAcceptableToken = (token: string, original: TConnection | null) =>
  token === '' || token === (original?.token ?? '') || isStrongApiToken(token);

/** Where Meta delivers this connection's webhooks (GET verification and POST events). */
export const webhookUrl = (origin: string, connectionId: number) =>
  `${origin.replace(/\/+$/, '')}/api/channels/cloud-api/${connectionId}/webhook`;

/** A server field error's path as the form names it: Cloud API settings live under `channelConfig.`. */
export const formFieldOfPath = (path: string): string => {
  const bare = path
    .replace(/^body\./, '')
    .replace(/^\//, '')
    .replace(/\//g, '.');

  return (CLOUD_FIELDS as readonly string[]).includes(bare) ? `channelConfig.${bare}` : bare;
};
