import { QueryClient } from '@tanstack/react-query';
import type { TUser } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';

/** Server-side render (no DOM) of the users page from a cached first page. */
beforeAll(() => stubLocalStorage());

const listed: TUser = {
  id: 2,
  companyId: 1,
  name: 'Bruno',
  email: 'bruno@x.com',
  profile: 'user',
  super: false,
  online: true,
  away: false,
  allTicket: 'desabled',
  canSeeTicketsWithoutQueue: false,
  whatsappId: null,
  whatsapp: null,
  language: null,
  queues: [{ id: 1, name: 'Vendas', color: '#2e7d32', UserQueue: { userId: 1, queueId: 1 } }],
  queueIds: [1],
  company: { id: 1, name: 'Empresa 1', dueDate: null },
  createdAt: '',
  updatedAt: '',
};

describe('UsersPage', { timeout: 90_000 }, () => {
  it('should list the users with their actions, search and add', async () => {
    const { default: UsersPage } = await import('./UsersPage');
    const client = new QueryClient();
    client.setQueryData(['users', 'page', '', {}], {
      pages: [{ users: [listed], hasMore: false, count: 1 }],
      pageParams: [1],
    });

    const html = await renderScreen(<UsersPage />, { path: '/users', client });

    for (const testId of ['users-add', 'users-search', 'user-row-bruno@x.com', 'user-edit-bruno@x.com']) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).toContain('data-testid="user-delete-bruno@x.com"');
    expect(html).toContain('Vendas');
  });
});
