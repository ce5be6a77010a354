import type { TConnection } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';

/** Issue 20 item 5: the connection editor offers a Generate button beside the API token (a generated token is strong). */

beforeAll(() => stubLocalStorage());

const connection = {
  id: 3,
  name: 'Loja',
  status: 'CONNECTED',
  provider: 'sandbox',
  isDefault: true,
  qrcode: '',
  retries: 0,
  lastError: null,
  phoneNumber: '',
  updatedAt: '2026-01-01T00:00:00.000Z',
  greetingMessage: '',
  complationMessage: '',
  outOfHoursMessage: '',
  ratingMessage: '',
  expiresInactiveMessage: '',
  expiresTicket: 0,
  timeUseBotQueues: 0,
  maxUseBotQueues: 3,
  transferQueueId: null,
  timeToTransfer: 0,
  closeOpenChatsAfterMinutes: 0,
  promptId: null,
  integrationId: null,
  flowIdWelcome: null,
  flowIdNotPhrase: null,
  token: 'Kq8vR2mZ7pL4wN9xT3yB6cD1-admins_view',
  channelConfig: {},
  queues: [],
  queueIds: [],
} as TConnection;

describe('the connection editor API token', { timeout: 90_000 }, () => {
  it('offers a Generate button beside the token field, in each language', async () => {
    const { ConnectionForm } = await import('./ConnectionForm');
    // the screen's texts (the connections page registers them)
    await import('./i18n');
    const { i18n } = await import('../../i18n');
    for (const [language, label] of [
      ['en', 'Generate'],
      ['pt', 'Gerar'],
      ['es', 'Generar'],
    ]) {
      await i18n.changeLanguage(language);
      const html = await renderScreen(<ConnectionForm connection={connection} onClose={() => undefined} />, {
        path: '/connections',
      });
      expect(html).toContain('data-testid="connection-token-generate"');
      expect(html).toContain(`data-testid="connection-token-generate">${label}</button>`);
    }
  });
});
