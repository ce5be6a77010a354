import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TSessionUser, TUser } from '@zelo/shared';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthContextValue } from '../../app/auth/AuthContext';

/** Server-side render (no DOM) of the users page from a cached first page. */
beforeAll(() => {
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
});

const admin: TSessionUser = {
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
};

const listed: TUser = {
  id: 2,
  companyId: 1,
  name: 'Bruno',
  email: 'bruno@x.com',
  profile: 'user',
  super: false,
  online: true,
  allTicket: 'desabled',
  canSeeTicketsWithoutQueue: false,
  whatsappId: null,
  whatsapp: null,
  language: null,
  queues: [{ id: 1, name: 'Vendas', color: '#2e7d32' }],
  queueIds: [1],
  company: { id: 1, name: 'Empresa 1', dueDate: null },
  createdAt: '',
  updatedAt: '',
};

describe('UsersPage', { timeout: 90_000 }, () => {
  it('should list the users with their actions, search and add', async () => {
    await import('../../i18n');
    const { AuthContext } = await import('../../app/auth/AuthContext');
    const { default: UsersPage } = await import('./UsersPage');
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
    client.setQueryData(['users', 'page', '', {}], {
      pages: [{ users: [listed], hasMore: false, count: 1 }],
      pageParams: [1],
    });

    const html = renderToString(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/users']}>
          <AuthContext.Provider value={value}>
            <UsersPage />
          </AuthContext.Provider>
        </MemoryRouter>
      </QueryClientProvider>,
    );

    for (const testId of ['users-add', 'users-search', 'user-row-bruno@x.com', 'user-edit-bruno@x.com']) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).toContain('data-testid="user-delete-bruno@x.com"');
    expect(html).toContain('Vendas');
  });
});
