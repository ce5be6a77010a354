import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphClient, GraphError, isAllowedGraphUrl } from '../../channels/cloud-api/graph-client';
import { startFakeGraph, type TFakeGraph } from '../../../test/fake-graph';
import type { TTenant } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { useOutboundAllowList } from '../../lib/outbound';
import { createCloudLine, until } from './cloud-api.fixtures';

/**
 * Issue 20 items 1 and 6 for the Cloud API: the Graph URL is Meta's host unless the operator allows another
 * (ERR_GRAPH_URL_NOT_ALLOWED at save time and again before every call), and a changed Graph URL needs the
 * access token typed again — the stored token never reaches the new address (a loopback recorder).
 */

let server: TTestServer;
let graph: TFakeGraph;
let tenant: TTenant;
let recorder: http.Server;
let recorderUrl = '';
/** the Authorization headers the recorder received */
const received: string[] = [];

beforeAll(async () => {
  // the harness's operator allows 127.0.0.1: the fake Graph and the recorder listen there
  server = await startTestServer();
  graph = await startFakeGraph();
  tenant = await server.createTenant('Graph URL');
  recorder = http.createServer((req, res) => {
    received.push(req.headers.authorization ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"display_phone_number":"15550002222"}');
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await server.close();
  await graph.close();
  recorder.closeAllConnections();
  recorder.close();
});

const cloudBody = (graphUrl: string) => ({
  name: `Cloud ${Math.random().toString(36).slice(2, 8)}`,
  provider: 'cloud-api',
  channelConfig: {
    phoneNumberId: '1234567',
    businessAccountId: '7654321',
    accessToken: 'a-token',
    appSecret: 'a-secret',
    verifyToken: 'a-verify',
    graphUrl,
  },
});

describe('the Graph URL', () => {
  it("is Meta's host unless the operator allowed another: refused at create and update", async () => {
    for (const graphUrl of [
      'https://graph.example.com',
      'https://graph.facebook.com.evil.example',
      'http://graph.facebook.com',
      'http://localhost:9331/graph', // resolves to an allowed address, but the operator named 127.0.0.1 only
      'http://10.0.0.5/graph',
      'http://169.254.169.254/latest',
    ]) {
      const res = await server.request('POST', '/api/whatsapp', { token: tenant.token, body: cloudBody(graphUrl) });
      expect(res.status, graphUrl).toBe(400);
      expect(res.body.error, graphUrl).toBe('ERR_GRAPH_URL_NOT_ALLOWED');
      expect(res.body.details).toEqual([{ path: 'channelConfig.graphUrl', message: 'invalid' }]);
    }
    const line = await createCloudLine(server, graph, tenant);
    const moved = await server.request('PUT', `/api/whatsapp/${line.connectionId}`, {
      token: tenant.token,
      body: { channelConfig: { graphUrl: 'https://graph.example.com', accessToken: 'typed-again' } },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error).toBe('ERR_GRAPH_URL_NOT_ALLOWED');
    expect(isAllowedGraphUrl('https://graph.facebook.com')).toBe(true);
    expect(isAllowedGraphUrl('https://graph.facebook.com/')).toBe(true);
  });

  it('is checked again before each call: a host the operator no longer allows is not contacted', async () => {
    received.length = 0;
    const client = createGraphClient(
      { graphUrl: recorderUrl, graphVersion: 'v21.0', accessToken: 'stored' },
      { attempts: 3, backoffMs: [0], timeoutMs: 2_000, maxRetryAfterMs: 0 },
    );
    await expect(client.call('GET', '123')).resolves.toMatchObject({ display_phone_number: '15550002222' });
    expect(received).toEqual(['Bearer stored']);
    useOutboundAllowList([]);
    try {
      const err = await client.call('GET', '123').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GraphError);
      expect((err as GraphError).retryable).toBe(false);
      expect(received).toHaveLength(1);
    } finally {
      useOutboundAllowList(server.ctx.config.outboundAllowHosts);
    }
  });
});

describe('a changed Graph URL', () => {
  it('needs the access token typed again: the stored one never reaches the new address', async () => {
    const line = await createCloudLine(server, graph, tenant);
    const stored = line.number.accessToken;
    const shown = (await server.request('GET', `/api/whatsapp/${line.connectionId}?session=0`, { token: tenant.token }))
      .body.channelConfig;
    received.length = 0;
    // the editor sends the mask back, or leaves the token out: refused, nothing stored, nothing sent
    for (const channelConfig of [
      { ...shown, graphUrl: recorderUrl },
      { graphUrl: recorderUrl },
      { graphUrl: `${recorderUrl}/`, accessToken: shown.accessToken },
    ]) {
      const res = await server.request('PUT', `/api/whatsapp/${line.connectionId}`, {
        token: tenant.token,
        body: { channelConfig },
      });
      expect(res.status, JSON.stringify(channelConfig)).toBe(400);
      expect(res.body.error).toBe('ERR_SECRET_RETYPE_REQUIRED');
      expect(res.body.details).toEqual([{ path: 'channelConfig.accessToken', message: 'required' }]);
    }
    const after = (await server.request('GET', `/api/whatsapp/${line.connectionId}?session=0`, { token: tenant.token }))
      .body.channelConfig;
    expect(after.graphUrl).toBe(graph.url);
    // the same URL (a trailing slash aside) keeps the masked token
    const same = await server.request('PUT', `/api/whatsapp/${line.connectionId}`, {
      token: tenant.token,
      body: { channelConfig: { ...shown, graphUrl: `${graph.url}/` } },
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    await until('CONNECTED again', () => server.ctx.channels.state(line.connectionId)?.status === 'CONNECTED');
    // typed again: the new URL gets the new token
    const retyped = await server.request('PUT', `/api/whatsapp/${line.connectionId}`, {
      token: tenant.token,
      body: { channelConfig: { ...shown, graphUrl: recorderUrl, accessToken: 'typed-for-the-new-url' } },
    });
    expect(retyped.status, JSON.stringify(retyped.body)).toBe(200);
    await until('the new URL called', () => received.length > 0);
    expect(received.every((auth) => auth === 'Bearer typed-for-the-new-url')).toBe(true);
    expect(received.join(' ')).not.toContain(stored);
  });
});
