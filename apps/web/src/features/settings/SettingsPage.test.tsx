import { type InfiniteData, QueryClient } from '@tanstack/react-query';
import type { TCompany, TFailedDeliveryCounts, TFailedDeliveryPage, THelp, TPlan, TSetting } from '@zelo/shared';
import { SETTING_DEFINITIONS, SETTING_KEYS } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, sessionUser, stubLocalStorage } from '../../testing/renderScreen';
import { COMPANIES_QUERY_KEY } from './companies/useCompanies';
import { addMonthsToDate, todayDateOnly } from './companies/dueDate';
import { PLANS_QUERY_KEY } from './plans/usePlans';
import { SETTINGS_QUERY_KEY } from './settingsCache';

/** Server-side renders (no DOM): the page shows the right tabs and controls from cached data. */
beforeAll(() => stubLocalStorage());

const plan: TPlan = {
  id: 1,
  name: 'Plano 1',
  users: 10,
  connections: 10,
  queues: 10,
  value: 30,
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  createdAt: '',
  updatedAt: '',
};

const company = (id: number, email: string, dueDate: string | null): TCompany => ({
  id,
  name: `Empresa ${id}`,
  email,
  phone: '',
  planId: 1,
  plan: { id: 1, name: 'Plano 1', value: 30 },
  status: true,
  campaignsEnabled: true,
  dueDate,
  recurrence: 'MENSAL',
  trialExpiration: null,
  timezone: 'America/Sao_Paulo',
  language: 'pt',
  schedules: [],
  billingName: '',
  addressZipCode: '',
  addressStreet: '',
  addressState: '',
  addressCity: '',
  addressDistrict: '',
  cpfCnpj: '',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '',
});

const inDays = (days: number) => {
  const date = new Date();
  date.setDate(date.getDate() + days);

  return todayDateOnly(date);
};

const render = async (path: string, isSuper: boolean, settings: TSetting[]) => {
  const { default: SettingsPage } = await import('./SettingsPage');
  const client = new QueryClient();
  client.setQueryData(SETTINGS_QUERY_KEY, settings);
  client.setQueryData(PLANS_QUERY_KEY, [plan]);
  client.setQueryData(COMPANIES_QUERY_KEY, [
    company(2, 'soon@x.com', inDays(5)),
    company(3, 'due@x.com', inDays(-3)),
    company(4, 'late@x.com', inDays(-4)),
    company(5, 'fine@x.com', addMonthsToDate(null, 2)),
    company(6, 'none@x.com', null),
  ]);
  client.setQueryData<THelp[]>(['helps', 'admin'], []);
  // an infinite list's key is its base key, the search and the filters
  client.setQueryData<InfiniteData<TFailedDeliveryPage>>(['failed-deliveries', 'page', '', {}], {
    pageParams: [1],
    pages: [
      {
        failedDeliveries: [
          {
            id: 41,
            whatsappId: 3,
            whatsappName: 'Atendimento',
            transport: 'baileys',
            kind: 'message',
            attempts: 5,
            lastError: 'connection refused',
            preview: 'Maria · 5511988887777: olá',
            receivedAt: '2026-11-25T10:00:00.000Z',
            lastAttemptAt: '2026-11-25T10:05:00.000Z',
          },
        ],
        count: 1,
        hasMore: false,
      },
    ],
  });
  client.setQueryData<TFailedDeliveryCounts>(['failed-deliveries', 'counts'], {
    companies: [{ companyId: 7, name: 'Empresa Sete', count: 4 }],
  });

  return renderScreen(<SettingsPage />, { path, user: sessionUser({ super: isSuper }), client });
};

const defaults = (overrides: Record<string, string> = {}): TSetting[] =>
  SETTING_KEYS.map((key) => ({ key, value: overrides[key] ?? SETTING_DEFINITIONS[key].default }));

describe('SettingsPage', { timeout: 90_000 }, () => {
  it('should show one control per setting and only the options tab to an admin', async () => {
    const html = await render('/settings', false, defaults());
    for (const key of SETTING_KEYS.filter((k) => k !== 'asaas')) {
      expect(html, key).toContain(`data-testid="setting-${key}"`);
    }
    // billing goes through the operator's key: a company's own Asaas token did nothing, so it is not offered
    expect(html).not.toContain('data-testid="setting-asaas"');
    expect(html).toContain('data-testid="settings-tab-options"');
    expect(html).not.toContain('data-testid="settings-tab-schedules"');
    expect(html).not.toContain('data-testid="settings-tab-companies"');
  });

  it('should add the schedules tab when scheduleType is company', async () => {
    const html = await render('/settings', false, defaults({ scheduleType: 'company' }));
    expect(html).toContain('data-testid="settings-tab-schedules"');
  });

  it('should show the super tabs and colour company rows by days to the due date', async () => {
    const html = await render('/settings?tab=companies', true, defaults());
    for (const tab of ['companies', 'plans', 'helps']) {
      expect(html, tab).toContain(`data-testid="settings-tab-${tab}"`);
    }
    const tone = (email: string) =>
      new RegExp(`data-testid="company-row-${email}" data-due-tone="([a-z]+)"`).exec(html)?.[1];
    expect(tone('soon@x.com')).toBe('yellow');
    expect(tone('due@x.com')).toBe('orange');
    expect(tone('late@x.com')).toBe('red');
    expect(tone('fine@x.com')).toBe('none');
    expect(tone('none@x.com')).toBe('none');
    expect(html).toContain('data-testid="company-save"');
  });

  it('should list failed deliveries with their error, preview and a Retry button; counts only for a super user', async () => {
    const admin = await render('/settings?tab=failedDeliveries', false, defaults());
    expect(admin).toContain('data-testid="failed-delivery-41"');
    expect(admin).toContain('Atendimento');
    expect(admin).toContain('connection refused');
    expect(admin).toContain('Maria · 5511988887777: olá');
    expect(admin).toContain('data-testid="failed-delivery-retry-41"');
    expect(admin).toContain('Failed deliveries');
    expect(admin).not.toContain('data-testid="failed-delivery-counts"');
    const superUser = await render('/settings?tab=failedDeliveries', true, defaults());
    expect(superUser).toContain('data-testid="failed-delivery-counts"');
    expect(superUser).toContain('Empresa Sete');
  });

  it('should fall back to the options tab when the requested tab is not allowed', async () => {
    const html = await render('/settings?tab=plans', false, defaults());
    expect(html).toContain('data-testid="setting-userRating"');
    expect(html).not.toContain('data-testid="plan-save"');
  });
});
