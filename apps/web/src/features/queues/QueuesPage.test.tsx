import { QueryClient } from '@tanstack/react-query';
import type { TQueue } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';

/** Server-side render (no DOM) of the queues page from a cached list. */
beforeAll(() => stubLocalStorage([['i18nextLng', 'en']]));

const queue = (fields: Partial<TQueue>): TQueue => ({
  id: 1,
  name: 'Q',
  color: '#1273DE',
  greetingMessage: '',
  outOfHoursMessage: '',
  orderQueue: null,
  integrationId: null,
  promptId: null,
  autoAssign: false,
  autoAssignMax: 5,
  schedules: [],
  ...fields,
});

describe('QueuesPage', { timeout: 90_000 }, () => {
  it('lists the queues in menu order with their colour, order and greeting, and their actions', async () => {
    const { QUEUES_QUERY_KEY } = await import('./useQueues');
    const { default: QueuesPage } = await import('./QueuesPage');
    const client = new QueryClient();
    // as the realtime reducer leaves it: a queue put first, whatever its order
    client.setQueryData(QUEUES_QUERY_KEY, {
      pages: [
        {
          queues: [
            queue({ id: 3, name: 'Suporte', color: '#FEF3BD' }),
            queue({ id: 1, name: 'Vendas', orderQueue: 1, greetingMessage: 'Bem-vindo às vendas' }),
          ],
          hasMore: false,
        },
      ],
      pageParams: [1],
    });

    const html = await renderScreen(<QueuesPage />, { path: '/queues', client });

    for (const testId of ['queues-add', 'queue-row-Vendas', 'queue-edit-Vendas', 'queue-delete-Suporte']) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html.indexOf('queue-row-Vendas')).toBeLessThan(html.indexOf('queue-row-Suporte'));
    expect(html).toContain('Bem-vindo às vendas');
    expect(html).toContain('#FEF3BD');
    expect(html).toContain('Queues &amp; Chatbot');
  });
});
