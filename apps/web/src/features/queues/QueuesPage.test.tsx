import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TQueue, TSessionUser } from '@zelo/shared';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthContextValue } from '../../app/auth/AuthContext';

/** Server-side render (no DOM) of the queues page from a cached list. */
beforeAll(() => {
  const store = new Map<string, string>([['i18nextLng', 'en']]);
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
});

const admin = {
  id: 1,
  name: 'Ana',
  email: 'ana@x.com',
  profile: 'admin',
  super: false,
  companyId: 1,
  allTicket: 'enabled',
  whatsappId: null,
  language: null,
  canSeeTicketsWithoutQueue: true,
  queues: [],
  company: { id: 1, name: 'Empresa 1', dueDate: '2093-01-05', status: true, settings: [], plan: null },
} as TSessionUser;

const queue = (fields: Partial<TQueue>): TQueue => ({
  id: 1,
  name: 'Q',
  color: '#1273DE',
  greetingMessage: '',
  outOfHoursMessage: '',
  orderQueue: null,
  integrationId: null,
  promptId: null,
  schedules: [],
  ...fields,
});

describe('QueuesPage', { timeout: 90_000 }, () => {
  it('lists the queues in menu order with their colour, order and greeting, and their actions', async () => {
    await import('../../i18n');
    const { AuthContext } = await import('../../app/auth/AuthContext');
    const { QUEUES_QUERY_KEY } = await import('./useQueues');
    const { default: QueuesPage } = await import('./QueuesPage');
    const value: AuthContextValue = {
      user: admin,
      loading: false,
      isAdmin: true,
      isSuper: false,
      login: async () => admin,
      logout: async () => undefined,
      refreshUser: async () => undefined,
      hasPlanFlag: () => true,
    };
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

    const html = renderToString(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/queues']}>
          <AuthContext.Provider value={value}>
            <QueuesPage />
          </AuthContext.Provider>
        </MemoryRouter>
      </QueryClientProvider>,
    );

    for (const testId of ['queues-add', 'queue-row-Vendas', 'queue-edit-Vendas', 'queue-delete-Suporte']) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html.indexOf('queue-row-Vendas')).toBeLessThan(html.indexOf('queue-row-Suporte'));
    expect(html).toContain('Bem-vindo às vendas');
    expect(html).toContain('#FEF3BD');
    expect(html).toContain('Queues &amp; Chatbot');
  });
});
