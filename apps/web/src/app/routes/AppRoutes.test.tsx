import type { TSessionUser } from '@zelo/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthContextValue } from '../auth/AuthContext';

/** Server-side renders of every route (no DOM here): each renders without throwing and shows the right thing. */
const store = new Map<string, string>();
beforeAll(() => {
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
});

const plan = {
  id: 1,
  name: 'Plano 1',
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: false,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
};
const makeUser = (
  profile: 'admin' | 'user',
  isSuper = false,
  company: Partial<TSessionUser['company']> = {},
): TSessionUser => ({
  id: 1,
  name: 'Ana',
  email: 'ana@x.com',
  profile,
  super: isSuper,
  companyId: 1,
  away: false,
  allTicket: 'desabled',
  whatsappId: null,
  language: null,
  canSeeTicketsWithoutQueue: false,
  queues: [],
  company: { id: 1, name: 'Empresa 1', dueDate: '2093-01-05', status: true, settings: [], plan, ...company },
});

const render = async (path: string, user: TSessionUser | null) => {
  await import('../../i18n');
  const { AuthContext } = await import('../auth/AuthContext');
  const { AppRoutes } = await import('./AppRoutes');
  const value: AuthContextValue = {
    user,
    loading: false,
    isAdmin: user?.profile === 'admin',
    isSuper: Boolean(user?.super),
    login: async () => user as TSessionUser,
    logout: async () => undefined,
    refreshUser: async () => undefined,
    hasPlanFlag: () => true,
  };

  return renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AuthContext.Provider value={value}>
          <AppRoutes />
        </AuthContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
};

const BUILT = [
  '/',
  '/reports',
  '/reports?from=2025-03-01&to=2025-03-31&queueIds=1,2&groupBy=week',
  '/connections',
  '/contacts',
  '/queues',
  '/quick-messages',
  '/queue-integration',
  '/simulator',
  '/tickets',
  '/todolist',
  '/chats',
  '/chats/0b7d3c1e-5f7a-4c1a-9d8e-2a6b1c3d4e5f',
  '/tags',
  '/kanban',
  '/schedules',
  '/financeiro',
  '/campaigns',
  '/campaign/2/report',
  '/campaigns-config',
  '/contact-lists',
  '/contact-lists/4/contacts',
  '/files',
  '/subscription',
  '/prompts',
  '/phrase-lists',
  '/flowbuilders',
  '/flowbuilder/3',
  '/flowbuilder',
];

describe('routes', { timeout: 30_000 }, () => {
  it('renders the public screens for a visitor', async () => {
    // the public pages load on demand: the first render asks for their code, the next shows them
    for (const path of ['/login', '/signup', '/forgetpsw']) {
      expect(await render(path, null)).not.toContain('data-testid="greeting"');
    }
    await Promise.all([
      import('../../features/auth/LoginPage'),
      import('../../features/auth/SignupPage'),
      import('../../features/auth/ForgotPasswordPage'),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await render('/login', null)).toContain('data-testid="login-submit"');
    expect(await render('/signup', null)).toContain('data-testid="signup-plan"');
    expect(await render('/forgetpsw', null)).toContain('data-testid="forgot-email"');
  });

  it('renders the built screens', async () => {
    for (const path of BUILT) {
      const html = await render(path, makeUser('admin'));
      expect(html, path).toContain('data-testid="greeting"');
    }
  });

  it('shows the menu by visibility rules', async () => {
    const admin = await render('/tickets', makeUser('admin'));
    for (const name of ['dashboard', 'reports', 'users', 'settings', 'campaigns', 'kanban', 'prompts', 'connections']) {
      expect(admin, name).toContain(`data-testid="menu-${name}"`);
    }
    expect(admin).not.toContain('data-testid="menu-messages-api"');
    expect(admin).not.toContain('data-testid="menu-announcements"');
    expect(admin).toContain('8.0.1');
    expect(admin).toContain('05/01/2093');

    const agent = await render('/tickets', makeUser('user'));
    // the plan has AI and integrations, but those screens are an admin's: no item an agent would be refused
    for (const name of [
      'dashboard',
      'reports',
      'users',
      'settings',
      'campaigns',
      'financeiro',
      'prompts',
      'queue-integration',
    ]) {
      expect(agent, name).not.toContain(`data-testid="menu-${name}"`);
    }
    expect(agent).toContain('data-testid="menu-tickets"');
    expect(agent).not.toContain('05/01/2093');

    expect(await render('/tickets', makeUser('admin', true))).toContain('data-testid="menu-announcements"');
  });

  it("shows campaigns and flows by the server's own gate: the plan's flag and the company's setting", async () => {
    const page = (html: string) => html.slice(html.indexOf('<main')).includes('<!--$!-->');
    const enabled = [{ key: 'campaignsEnabled', value: 'true' }];
    // a plan without campaigns: no menu and no screen, although the company's setting is on (the API answers 403)
    const noPlan = makeUser('admin', false, { plan: { ...plan, useCampaigns: false }, settings: enabled });
    for (const path of ['/campaigns', '/flowbuilders']) {
      const html = await render(path, noPlan);
      expect(html, path).not.toContain('data-testid="menu-campaigns"');
      expect(html, path).not.toContain('data-testid="menu-flowbuilders"');
      expect(page(html), path).toBe(false);
    }
    // campaigns off in the company's settings: the same
    const off = makeUser('admin', false, { settings: [{ key: 'campaignsEnabled', value: 'false' }] });
    expect(await render('/tickets', off)).not.toContain('data-testid="menu-campaigns"');
    // both on: there
    const on = await render('/campaigns', makeUser('admin', false, { settings: enabled }));
    expect(on).toContain('data-testid="menu-campaigns"');
    expect(page(on)).toBe(true);
  });

  it('gives every menu item its route’s rule, so the menu never offers a refused screen', async () => {
    const { MAIN_MENU, ADMIN_MENU } = await import('../layout/menuItems');
    const { PRIVATE_ROUTES } = await import('./routeTable');
    const links = [...MAIN_MENU, ...ADMIN_MENU].flatMap((e) => (e.kind === 'group' ? e.children : [e]));
    for (const item of links.filter((l) => l.to !== '/')) {
      const route = PRIVATE_ROUTES.find((r) => r.path.split('/')[0] === item.to.slice(1));
      expect(route, item.to).toBeDefined();
      expect(item.access, item.to).toEqual(route?.access);
    }
  });

  it('does not render a refused page', async () => {
    // an allowed screen suspends on its lazy page inside <main> (the boundary's client-render marker `<!--$!-->`);
    // a refused one renders nothing there, so the boundary completes
    const page = (html: string) => html.slice(html.indexOf('<main')).includes('<!--$!-->');
    expect(page(await render('/users', makeUser('user')))).toBe(false);
    expect(page(await render('/reports', makeUser('user')))).toBe(false);
    expect(page(await render('/reports', makeUser('admin')))).toBe(true);
    expect(page(await render('/announcements', makeUser('admin')))).toBe(false);
    expect(page(await render('/users', makeUser('admin')))).toBe(true);
    const forSuper = await render('/announcements', makeUser('admin', true));
    expect(forSuper).toContain('data-testid="greeting"');
    expect(page(forSuper)).toBe(true);
  });

  it('a pay-only session (past the due date) gets the expiry notice and a menu of subscription and invoices only', async () => {
    const late = makeUser('admin', false, { dueDate: '2020-01-01', payOnly: true });
    for (const path of ['/tickets', '/subscription', '/financeiro', '/']) {
      const html = await render(path, late);
      expect(html, path).toContain('data-testid="expiry-notice"');
      expect(html, path).toContain('01/01/2020');
      expect(html, path).toContain('data-testid="menu-subscription"');
      expect(html, path).toContain('data-testid="menu-financeiro"');
      for (const name of ['tickets', 'dashboard', 'contacts', 'users', 'settings', 'connections', 'campaigns-group']) {
        expect(html, `${path} ${name}`).not.toContain(`data-testid="menu-${name}"`);
      }
      // nothing of the top bar that reads other routes
      expect(html, path).not.toContain('data-testid="notifications"');
      // the greeting does not call an expired company active
      expect(html, path).not.toContain('Active until');
      expect(html, path).toContain('(Expired on 01/01/2020)');
    }
    // another screen is not drawn (the gate redirects to /subscription)
    const tickets = await render('/tickets', late);
    expect(tickets).not.toContain('data-testid="tickets-page"');
    expect(tickets).not.toContain('data-testid="page-loading"');
    // the same company after paying: the whole app again, no notice
    const paid = await render('/tickets', makeUser('admin', false, { dueDate: '2093-01-05', payOnly: false }));
    expect(paid).not.toContain('data-testid="expiry-notice"');
    expect(paid).toContain('data-testid="menu-tickets"');
  });
});
