import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const store = new Map<string, string>();
const localStorageStub = {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => store.set(k, String(v)),
  removeItem: (k: string) => store.delete(k),
  clear: () => store.clear(),
};

const user = {
  id: 7,
  companyId: 3,
  company: { settings: [{ key: 'campaignsEnabled', value: 'true' }] },
};

type Call = { url: string; auth?: string; method: string };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const setup = async (handler: (call: Call, n: number) => Response | Promise<Response>) => {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const call = {
        url,
        method: init.method ?? 'GET',
        auth: (init.headers as Record<string, string>).Authorization,
      };
      calls.push(call);

      return handler(call, calls.length);
    }),
  );
  const http = await import('./http');
  const session = await import('./session');
  const ended = vi.fn();
  session.onSessionEnded(ended);

  return { ...http, calls, ended };
};

beforeEach(() => {
  vi.resetModules();
  store.clear();
  vi.stubGlobal('localStorage', localStorageStub);
  store.set('token', 'old');
  store.set('companyId', '3');
  store.set('userId', '7');
  store.set('cshow', 'true');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('sends the bearer token, the /api prefix and query params', async () => {
    const { api, calls } = await setup(() => json(200, { ok: true }));
    await api.get('/users', { params: { searchParam: 'a b', pageNumber: 2, skip: undefined } });
    expect(calls[0]).toMatchObject({ url: '/api/users?searchParam=a+b&pageNumber=2', auth: 'Bearer old' });
  });

  it('throws an ApiError with code and details', async () => {
    const { api, ApiError } = await setup(() =>
      json(400, { error: 'ERR_VALIDATION', message: 'bad', details: [{ path: 'name', message: 'required' }] }),
    );
    const err = await api.post('/users', {}).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'ERR_VALIDATION', details: [{ path: 'name' }] });
  });

  it('refreshes once on 403 ERR_SESSION_EXPIRED, queueing concurrent requests, then retries', async () => {
    const { api, calls, ended } = await setup((call) => {
      if (call.url === '/api/auth/refresh_token') {
        return json(200, { token: 'new', user });
      }
      if (call.auth === 'Bearer old') {
        return json(403, { error: 'ERR_SESSION_EXPIRED', message: 'expired' });
      }

      return json(200, { ok: call.url });
    });
    const results = await Promise.all([api.get('/a'), api.get('/b'), api.get('/c')]);
    expect(results).toEqual([{ ok: '/api/a' }, { ok: '/api/b' }, { ok: '/api/c' }]);
    expect(calls.filter((c) => c.url === '/api/auth/refresh_token')).toHaveLength(1);
    expect(store.get('token')).toBe('new');
    expect(ended).not.toHaveBeenCalled();
  });

  it('ends the session when the refresh fails', async () => {
    const { api, ended } = await setup((call) =>
      call.url === '/api/auth/refresh_token'
        ? json(401, { error: 'ERR_SESSION_REVOKED', message: 'no' })
        : json(403, { error: 'ERR_SESSION_EXPIRED', message: 'expired' }),
    );
    await expect(api.get('/a')).rejects.toBeTruthy();
    expect(ended).toHaveBeenCalledTimes(1);
    expect(store.has('token') || store.has('companyId') || store.has('userId') || store.has('cshow')).toBe(false);
  });

  it('ends the session on a 403 ERR_SESSION_EXPIRED after the retry', async () => {
    const { api, ended, calls } = await setup((call) =>
      call.url === '/api/auth/refresh_token'
        ? json(200, { token: 'new', user })
        : json(403, { error: 'ERR_SESSION_EXPIRED', message: 'expired' }),
    );
    await expect(api.get('/a')).rejects.toMatchObject({ code: 'ERR_SESSION_EXPIRED' });
    expect(calls).toHaveLength(3);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('ends the session on a 401 but not on 403 ERR_NO_PERMISSION', async () => {
    const { api, ended, calls } = await setup((call) =>
      call.url === '/api/x'
        ? json(403, { error: 'ERR_NO_PERMISSION', message: 'no' })
        : json(401, { error: 'ERR_NOT_AUTHENTICATED', message: 'no' }),
    );
    await expect(api.get('/x')).rejects.toMatchObject({ code: 'ERR_NO_PERMISSION' });
    expect(ended).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
    await expect(api.get('/y')).rejects.toMatchObject({ status: 401 });
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('does not end a session that was not there (failed login)', async () => {
    store.clear();
    const { api, ended } = await setup(() => json(401, { error: 'ERR_INVALID_CREDENTIALS', message: 'no' }));
    await expect(api.post('/auth/login', {})).rejects.toMatchObject({ code: 'ERR_INVALID_CREDENTIALS' });
    expect(ended).not.toHaveBeenCalled();
  });
});
