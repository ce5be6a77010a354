export * from './core';
export * from './connections';
export * from './queues';
export * from './contacts';
export * from './tickets';
export * from './messages';
export * from './tags';
export * from './quick-messages';
export * from './schedules';
export * from './campaigns';
export * from './files';
export * from './announcements';
export * from './chats';
export * from './automation';
export * from './api';
export * from './subscriptions';
export * from './cloud-api';
export * from './sandbox';
export * from './integration-deliveries';

/**
 * Columns holding secrets, per table (TypeScript property names). The API returns them in full only to
 * the admin who edits them; lists and other roles get them masked. Hashed columns are not listed: they
 * are never returned at all.
 */
export const SECRET_COLUMNS = {
  whatsapps: ['token', 'channelSecret'],
  prompts: ['apiKey', 'voiceKey'],
  queueIntegrations: ['jsonContent', 'webhookSecret'],
  webhooks: ['signingSecret'],
} as const;
export * from './deliveries';
export * from './flow-runs';
export * from './dashboard';
export * from './reports';
