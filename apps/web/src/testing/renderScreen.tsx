import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TSessionUser } from '@zelo/shared';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import type { AuthContextValue } from '../app/auth/AuthContext';

/**
 * Helpers for the screens' server-render tests (no DOM). The i18n module reads localStorage when it is first
 * imported, so a test stubs it (`stubLocalStorage` in `beforeAll`) and imports the screen afterwards, dynamically.
 */
export const stubLocalStorage = (entries: [string, string][] = []) => {
  const store = new Map<string, string>(entries);
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
};

/** A signed-in company admin; `fields` change it. */
export const sessionUser = (fields: Partial<TSessionUser> = {}): TSessionUser => ({
  id: 1,
  name: 'Ana',
  email: 'ana@x.com',
  profile: 'admin',
  super: false,
  companyId: 1,
  away: false,
  allTicket: 'enabled',
  whatsappId: null,
  language: null,
  canSeeTicketsWithoutQueue: true,
  queues: [],
  company: { id: 1, name: 'Empresa 1', dueDate: '2093-01-05', status: true, settings: [], plan: null },
  ...fields,
});

type TRenderOptions = { path: string; user?: TSessionUser; client?: QueryClient };

/** Renders a screen at `path` as `user` (an admin by default) with a query cache the test filled. */
export const renderScreen = async (screen: ReactElement, { path, user = sessionUser(), client }: TRenderOptions) => {
  // the stored language's texts, as the app's first render waits for them (main.tsx)
  await (await import('../i18n')).languageReady;
  const { AuthContext } = await import('../app/auth/AuthContext');
  const value: AuthContextValue = {
    user,
    loading: false,
    isAdmin: user.profile === 'admin',
    isSuper: user.super,
    login: async () => user,
    logout: async () => undefined,
    refreshUser: async () => undefined,
    hasPlanFlag: () => true,
  };

  return renderToString(
    <QueryClientProvider client={client ?? new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AuthContext.Provider value={value}>{screen}</AuthContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
};
