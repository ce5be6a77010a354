import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TContact, TSessionUser } from '@zelo/shared';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthContextValue } from '../../app/auth/AuthContext';

/** Server-side render (no DOM) of the contacts page from a cached first page. */
beforeAll(() => {
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
});

const sessionUser = (profile: 'admin' | 'user'): TSessionUser => ({
  id: 1,
  name: 'Ana',
  email: 'ana@x.com',
  profile,
  super: false,
  companyId: 1,
  allTicket: 'enabled',
  whatsappId: null,
  language: null,
  canSeeTicketsWithoutQueue: true,
  queues: [],
  company: { id: 1, name: 'Empresa 1', dueDate: '2093-01-05', status: true, settings: [], plan: null },
});

const contact = {
  id: 7,
  name: 'Renata',
  number: '5521988887777',
  email: 'renata@x.com',
  profilePicUrl: '',
  isGroup: false,
  disableBot: false,
  extraInfo: [],
} as unknown as TContact;

const render = async (profile: 'admin' | 'user') => {
  await import('../../i18n');
  const { AuthContext } = await import('../../app/auth/AuthContext');
  const { default: ContactsPage } = await import('./ContactsPage');
  const user = sessionUser(profile);
  const value: AuthContextValue = {
    user,
    loading: false,
    isAdmin: profile === 'admin',
    isSuper: false,
    login: async () => user,
    logout: async () => undefined,
    refreshUser: async () => undefined,
    hasPlanFlag: () => true,
  };
  const client = new QueryClient();
  client.setQueryData(['contacts', 'page', '', {}], {
    pages: [{ contacts: [contact], hasMore: false, count: 1 }],
    pageParams: [1],
  });

  return renderToString(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/contacts']}>
        <AuthContext.Provider value={value}>
          <ContactsPage />
        </AuthContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
};

describe('ContactsPage', { timeout: 90_000 }, () => {
  it('should list the contacts with the count, open-ticket, edit and delete, import, export and add', async () => {
    const html = await render('admin');
    for (const testId of [
      'contacts-search',
      'contacts-add',
      'contacts-import',
      'contacts-export',
      'contact-row-5521988887777',
      'contact-ticket-5521988887777',
      'contact-edit-5521988887777',
      'contact-delete-5521988887777',
    ]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).toMatch(/data-testid="contacts-count"[^>]*>\(<!-- -->1<!-- -->\)/);
    expect(html).toContain('renata@x.com');
  });

  it('should not offer delete to an agent', async () => {
    const html = await render('user');
    expect(html).toContain('data-testid="contact-edit-5521988887777"');
    expect(html).not.toContain('data-testid="contact-delete-5521988887777"');
  });
});
