import { QueryClient } from '@tanstack/react-query';
import type { TConnection } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, sessionUser, stubLocalStorage } from '../../testing/renderScreen';

beforeAll(() => stubLocalStorage());

const connection = (fields: Partial<TConnection>): TConnection =>
  ({
    id: 1,
    name: 'Main',
    status: 'CONNECTED',
    provider: 'sandbox',
    isDefault: true,
    qrcode: '',
    retries: 0,
    lastError: null,
    phoneNumber: '',
    updatedAt: '2026-01-01T00:00:00.000Z',
    token: null,
    queues: [],
    queueIds: [],
    ...fields,
  }) as TConnection;

describe('messages API: examples and the try-it call', { timeout: 90_000 }, () => {
  it('builds curl examples for JSON and multipart with the token and the Idempotency-Key', async () => {
    const { curlJson, curlMultipart, endpointOf, maskedToken } = await import('./apiExamples');
    const endpoint = endpointOf('https://zelo.example.com/');
    expect(endpoint).toBe('https://zelo.example.com/api/messages/send');
    const json = curlJson(endpoint, 'secret-token', '5511999999999', "It's shipped");
    expect(json).toContain("curl -X POST 'https://zelo.example.com/api/messages/send'");
    expect(json).toContain("-H 'Authorization: Bearer secret-token'");
    expect(json).toContain("-H 'Idempotency-Key: ");
    // a quote in the text is escaped for the shell
    expect(json).toContain(`-d '{"number":"5511999999999","body":"It'\\''s shipped"}'`);
    const multipart = curlMultipart(endpoint, 'secret-token', '5511999999999', 'Invoice');
    expect(multipart).toContain("-F 'number=5511999999999'");
    expect(multipart).toContain("-F 'medias=@");
    expect(maskedToken('abcdefghijklmnop')).toBe('••••••••mnop');
    expect(maskedToken('short')).not.toContain('short');
    // the server's mask of the connections list
    expect(maskedToken('********wxyz')).toBe('••••••••wxyz');
  });

  it('sends JSON without a file and multipart with one, with the connection token as the bearer', async () => {
    const { trySend } = await import('./apiExamples');
    const seen: { url: string; init: RequestInit }[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response(JSON.stringify({ mensagem: 'Mensagem enviada', messageId: 3 }), { status: 200 });
    }) as typeof fetch;
    try {
      const text = await trySend('conn-token', { number: '5511999999999', body: 'Hi', file: null });
      expect(text).toEqual({ status: 200, body: { mensagem: 'Mensagem enviada', messageId: 3 } });
      expect(seen[0].url).toBe('/api/messages/send');
      const headers = seen[0].init.headers as Record<string, string>;
      expect(headers.Authorization).toBe('Bearer conn-token');
      expect(headers['Content-Type']).toBe('application/json');
      expect(JSON.parse(seen[0].init.body as string)).toEqual({ number: '5511999999999', body: 'Hi' });

      await trySend('conn-token', {
        number: '5511999999999',
        body: 'Caption',
        file: new File(['%PDF'], 'a.pdf', { type: 'application/pdf' }),
      });
      const form = seen[1].init.body as FormData;
      expect(form.get('number')).toBe('5511999999999');
      expect(form.get('body')).toBe('Caption');
      expect((form.get('medias') as File).name).toBe('a.pdf');
      expect((seen[1].init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it("documents the API with the company's connections, their tokens masked", async () => {
    const { default: MessagesApiPage } = await import('./MessagesApiPage');
    const client = new QueryClient();
    client.setQueryData(
      ['connections', 'list'],
      [
        connection({ id: 1, name: 'Sales', token: '********wxyz' }),
        connection({ id: 2, name: 'Support', token: null }),
      ],
    );
    const html = await renderScreen(<MessagesApiPage />, { path: '/messages-api', client });
    expect(html).toContain('Messages API');
    expect(html).toContain('/api/messages/send');
    expect(html).toMatch(/data-testid="messages-api-token-1"[^>]*>••••••••wxyz</);
    expect(html).toContain('Bearer ••••••••wxyz');
    expect(html).toContain('data-testid="messages-api-reveal-1"');
    expect(html).toContain('No token: set one in the connection editor');
    for (const code of ['ERR_WAPP_NOT_FOUND_FOR_TOKEN', 'ERR_PLAN_FEATURE_DISABLED', 'ERR_WAPP_NOT_INITIALIZED']) {
      expect(html).toContain(code);
    }
    expect(html).toContain('Idempotency-Key');
    expect(html).toContain('data-testid="messages-api-try"');
  });

  it('an agent sees the masked tokens but can neither reveal them nor try a send', async () => {
    const { default: MessagesApiPage } = await import('./MessagesApiPage');
    const client = new QueryClient();
    client.setQueryData(['connections', 'list'], [connection({ id: 1, name: 'Sales', token: '********wxyz' })]);
    const html = await renderScreen(<MessagesApiPage />, {
      path: '/messages-api',
      client,
      user: sessionUser({ profile: 'user' }),
    });
    expect(html).not.toContain('data-testid="messages-api-reveal-1"');
    expect(html).toContain('Only admins see the whole token.');
    expect(html).toMatch(/<button[^>]*disabled[^>]*data-testid="messages-api-send"/);
  });

  it('without any token it says where to set one', async () => {
    const { default: MessagesApiPage } = await import('./MessagesApiPage');
    const client = new QueryClient();
    client.setQueryData(['connections', 'list'], [connection({ token: null })]);
    const html = await renderScreen(<MessagesApiPage />, { path: '/messages-api', client });
    expect(html).toContain('data-testid="messages-api-no-token"');
    expect(html).toContain('Bearer &lt;token&gt;');
  });
});
