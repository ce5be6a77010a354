import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The reports' requests against a fake fetch: the filters, the page, the export's file and the weekly e-mail. */

type TCall = { url: string; method: string; auth?: string; body?: string };

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

const setup = async (answer: (call: TCall) => Response) => {
  const calls: TCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const call = {
        url,
        method: init.method ?? 'GET',
        auth: (init.headers as Record<string, string>).Authorization,
        body: typeof init.body === 'string' ? init.body : undefined,
      };
      calls.push(call);

      return answer(call);
    }),
  );
  const store = new Map<string, string>([['token', 'tok']]);
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });

  return { calls, ...(await import('./reportsApi')), ...(await import('./reportFilter')) };
};

beforeEach(() => vi.resetModules());
afterEach(() => vi.unstubAllGlobals());

describe('reports API', () => {
  it('asks each report with the filter of the URL', async () => {
    const { calls, reportsApi, reportParams, filterOfSearch } = await setup(() => json({}));
    const params = reportParams(
      filterOfSearch(new URLSearchParams('from=2025-03-03&to=2025-03-09&queueIds=4,2&tagIds=8&groupBy=week')),
    );
    await reportsApi.report('summary', params);
    await reportsApi.report('agents', params);
    await reportsApi.csat(params, 3);
    const query = 'from=2025-03-03&to=2025-03-09&queueIds=2%2C4&tagIds=8&groupBy=week';
    expect(calls.map((c) => c.url)).toEqual([
      `/api/reports/summary?${query}`,
      `/api/reports/agents?${query}`,
      `/api/reports/csat?${query}&pageNumber=3`,
    ]);
    expect(calls[0]?.auth).toBe('Bearer tok');
  });

  it('downloads an export with the filters and the language, under the name the server gives', async () => {
    const { calls, downloadReport } = await setup(
      () =>
        new Response('a;b\n1;2\n', {
          status: 200,
          headers: {
            'Content-Type': 'text/csv',
            'Content-Disposition': `attachment; filename="x.csv"; filename*=UTF-8''relat%C3%B3rio-agentes.csv`,
          },
        }),
    );
    const saved: { text: string; name: string }[] = [];
    const save = async (blob: Blob, name: string) => saved.push({ text: await blob.text(), name });
    await downloadReport('agents', 'csv', 'es', { from: '2025-03-03', userIds: '7', groupBy: 'day' }, (b, n) => {
      void save(b, n);
    });
    expect(calls[0]?.url).toBe(
      '/api/reports/export?from=2025-03-03&userIds=7&groupBy=day&report=agents&format=csv&lang=es',
    );
    await vi.waitFor(() => expect(saved).toEqual([{ text: 'a;b\n1;2\n', name: 'relatório-agentes.csv' }]));
  });

  it('names an export itself when the server gives no name, and fails as an error on a refusal', async () => {
    const { downloadReport } = await setup(() => new Response(new Uint8Array([80, 75])));
    const names: string[] = [];
    const params = { from: '2025-03-01', to: '2025-03-31', groupBy: 'day' };
    await downloadReport('tickets', 'xlsx', 'pt', params, (_blob, name) => names.push(name));
    expect(names).toEqual(['report-tickets-2025-03-01-2025-03-31.xlsx']);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: 'ERR_NO_PERMISSION' }), { status: 403 })),
    );
    await expect(downloadReport('tickets', 'csv', 'pt', params, () => undefined)).rejects.toMatchObject({
      status: 403,
      code: 'ERR_NO_PERMISSION',
    });
  });

  it('reads and changes the weekly e-mail opt-in', async () => {
    const { calls, reportsApi } = await setup((call) => json({ enabled: call.method === 'PUT', email: 'ana@x.com' }));
    expect(await reportsApi.weeklyMail()).toEqual({ enabled: false, email: 'ana@x.com' });
    expect(await reportsApi.setWeeklyMail(true)).toEqual({ enabled: true, email: 'ana@x.com' });
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', '/api/reports/weekly-mail', undefined],
      ['PUT', '/api/reports/weekly-mail', '{"enabled":true}'],
    ]);
  });
});
