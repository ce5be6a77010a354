import { zodResolver } from '@hookform/resolvers/zod';
import type { TChannelProvider, TConnection, TConnectionBody } from '@zelo/shared';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

export type TCloudConfig = {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  verifyToken: string;
  graphUrl: string;
  graphVersion: string;
};

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
  channelConfig: Record<string, unknown> & TCloudConfig;
};

export const CLOUD_FIELDS = [
  'phoneNumberId',
  'businessAccountId',
  'accessToken',
  'verifyToken',
  'graphUrl',
  'graphVersion',
] as const;

const text = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);

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
    channelConfig: {
      ...config,
      phoneNumberId: text(config.phoneNumberId),
      businessAccountId: text(config.businessAccountId),
      accessToken: text(config.accessToken),
      verifyToken: text(config.verifyToken),
      graphUrl: text(config.graphUrl, 'https://graph.facebook.com'),
      graphVersion: text(config.graphVersion, 'v21.0'),
    },
  };
};

/** The body sent: the Cloud API settings only for that provider (others keep what they had), an empty token as none. */
export const toConnectionRequest = (body: TConnectionBody, original: TConnection | null): TConnectionBody => {
  const channelConfig = body.provider === 'cloud-api' ? body.channelConfig : (original?.channelConfig ?? {});

  return { ...body, token: body.token ? body.token : null, channelConfig };
};

/** zodResolver over the shared schema; the form holds editable text where the schema coerces. */
export const formResolver = <TValues extends FieldValues, TOutput>(
  schema: z.ZodType<TOutput>,
): Resolver<TValues, unknown, TOutput> =>
  zodResolver(schema as z.ZodType<TOutput, FieldValues>) as unknown as Resolver<TValues, unknown, TOutput>;
