import { QueryClient } from '@tanstack/react-query';
import { type TQueueIntegration, ZQueueIntegrationBody } from '@zelo/shared';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, sessionUser, stubLocalStorage } from '../../testing/renderScreen';

const calls: { method: string; url: string; params?: unknown }[] = [];
let flowsAnswer: (pageNumber: number) => unknown = () => ({ flows: [] });
vi.mock('../../api/http', async (original) => {
  const actual = await original<typeof import('../../api/http')>();
  return {
    ...actual,
    api: {
      get: async (url: string, opts?: { params?: { pageNumber?: number } }) => {
        calls.push({ method: 'GET', url, ...(opts?.params ? { params: opts.params } : {}) });
        return flowsAnswer(opts?.params?.pageNumber ?? 1);
      },
      post: async () => ({}),
      put: async () => ({}),
      delete: async (url: string) => {
        calls.push({ method: 'DELETE', url });
        return {};
      },
    },
  };
});

beforeAll(() => stubLocalStorage());
beforeEach(() => {
  calls.length = 0;
});

const integration = (fields: Partial<TQueueIntegration> = {}): TQueueIntegration => ({
  id: 1,
  type: 'typebot',
  name: 'Atendimento bot',
  projectName: 'Atendimento bot',
  jsonContent: '',
  language: 'pt-BR',
  urlN8N: 'https://typebot.example',
  typebotSlug: 'bot',
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotUnknownMessage: '',
  flowId: null,
  webhookSecret: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

describe('queue integrations: the dialog and the list changes', { timeout: 90_000 }, () => {
  it("starts a new form with the ancestor's defaults, which the shared schema refuses until filled", async () => {
    const { integrationDefaults } = await import('./QueueIntegrationDialog');
    const fresh = integrationDefaults(null);
    expect(fresh).toMatchObject({ type: 'typebot', typebotExpires: 1, typebotDelayMessage: 1000, language: 'pt-BR' });
    const parsed = ZQueueIntegrationBody.safeParse(fresh);
    expect(parsed.success).toBe(false);
    const paths = parsed.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['name', 'urlN8N', 'typebotSlug']));
  });

  it('sends a stored record back as it came: masked secrets pass (the server keeps them)', async () => {
    const { integrationDefaults } = await import('./QueueIntegrationDialog');
    const dialogflow = integration({
      type: 'dialogflow',
      projectName: 'proj',
      jsonContent: '••••••',
      urlN8N: '',
      typebotSlug: '',
    });
    expect(ZQueueIntegrationBody.safeParse(integrationDefaults(dialogflow)).success).toBe(true);
    const hook = integration({ type: 'webhook', webhookSecret: '••••••abcd', typebotSlug: '' });
    const values = integrationDefaults(hook);
    expect(values.webhookSecret).toBe('••••••abcd');
    expect(ZQueueIntegrationBody.safeParse(values).success).toBe(true);
    // a flowbuilder integration without a flow runs the connection's own flows (the ancestor's dialog sends none)
    const flow = integrationDefaults(integration({ type: 'flowbuilder', urlN8N: '' }));
    expect(ZQueueIntegrationBody.safeParse(flow).success).toBe(true);
    expect(ZQueueIntegrationBody.safeParse({ ...flow, flowId: 3 }).success).toBe(true);
  });

  it('reads the flows for the flowbuilder type, a 404 (no flow builder on the server) as none', async () => {
    const { fetchFlows } = await import('./useQueueIntegrations');
    const { ApiError } = await import('../../api/http');
    flowsAnswer = () => ({ flows: [{ id: 4, name: 'Boas-vindas', active: true }], hasMore: false });
    expect(await fetchFlows()).toEqual([{ id: 4, name: 'Boas-vindas' }]);
    expect(calls.at(-1)).toEqual({ method: 'GET', url: '/flowbuilder' });
    // past the first page (40 flows) the select still offers every flow
    flowsAnswer = (page) => ({ flows: [{ id: 40 + page, name: `Fluxo ${page}` }], hasMore: page < 3 });
    expect(await fetchFlows()).toEqual([
      { id: 41, name: 'Fluxo 1' },
      { id: 42, name: 'Fluxo 2' },
      { id: 43, name: 'Fluxo 3' },
    ]);
    expect(calls.at(-1)).toEqual({ method: 'GET', url: '/flowbuilder', params: { pageNumber: 3 } });
    flowsAnswer = () => {
      throw new ApiError(404, 'ERR_ROUTE_NOT_FOUND', 'not found');
    };
    expect(await fetchFlows()).toEqual([]);
    flowsAnswer = () => {
      throw new ApiError(500, 'ERR_INTERNAL_SERVER_ERROR', 'boom');
    };
    await expect(fetchFlows()).rejects.toThrow('boom');
  });

  it("reads the ancestor's realtime payloads as list changes", async () => {
    const { integrationEventChange } = await import('./useQueueIntegrations');
    const one = integration();
    expect(integrationEventChange({ action: 'delete', integrationId: '5' })).toEqual({ remove: 5 });
    expect(integrationEventChange({ action: 'create', queueIntegration: one })).toEqual({ upsert: one });
  });
});

describe('QueueIntegrationsPage', { timeout: 90_000 }, () => {
  it('lists the integrations with their type logo, id and name; the delivery log only for n8n and webhooks', async () => {
    const { default: QueueIntegrationsPage } = await import('./QueueIntegrationsPage');
    const client = new QueryClient();
    const hook = integration({ id: 2, type: 'webhook', name: 'CRM hook' });
    client.setQueryData(['queue-integrations', 'page', '', {}], {
      pages: [{ queueIntegrations: [integration(), hook], hasMore: false, count: 2 }],
      pageParams: [1],
    });
    const html = await renderScreen(<QueueIntegrationsPage />, {
      path: '/queue-integration',
      user: sessionUser(),
      client,
    });
    for (const testId of [
      'integrations-add',
      'integrations-search',
      'integration-row-1',
      'integration-row-2',
      'integration-logo-typebot',
      'integration-logo-webhook',
      'integration-edit-1',
      'integration-delete-2',
      'integration-deliveries-2',
    ]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).not.toContain('data-testid="integration-deliveries-1"');
    expect(html).toContain('CRM hook');
    expect(html).toContain('Integrations');
  });
});

describe('a failed Dialogflow test', { timeout: 60_000 }, () => {
  it('says why: a broken key file is named with how to fix it, in the user’s language', async () => {
    const { ApiError } = await import('../../api/http');
    const { errorWithDetails } = await import('../../components/toast');
    const { i18n } = await import('../../i18n');
    const err = new ApiError(502, 'ERR_INTEGRATION_TEST_FAILED', 'The service-account JSON is not a valid key file', [
      { path: 'jsonContent', message: 'invalidServiceAccount' },
    ]);
    await i18n.changeLanguage('en');
    expect(errorWithDetails(err)).toBe(
      `${i18n.t('errors.ERR_INTEGRATION_TEST_FAILED')} ${i18n.t('validation.invalidServiceAccount')}`,
    );
    expect(errorWithDetails(err)).toContain('client_email');
    await i18n.changeLanguage('pt');
    expect(errorWithDetails(err)).toContain('cole o arquivo de chave');
    // a failure without a reason on a field reads as before
    expect(errorWithDetails(new ApiError(502, 'ERR_INTEGRATION_TEST_FAILED', 'x'))).toBe(
      i18n.t('errors.ERR_INTEGRATION_TEST_FAILED'),
    );
  });
});
