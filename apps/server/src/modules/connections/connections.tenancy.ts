import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TTenant } from '../../../test/fixtures';
import type { TTestServer } from '../../../test/harness';
import type { TTenancyCase } from '../../../test/tenancy';

/** B's connection as B's admin sees it; the QR code itself rotates, its status must not move */
const readConnection = async (server: TTestServer, tenant: TTenant, id: number) => {
  const res = await server.request('GET', `/api/whatsapp/${id}`, { token: tenant.token, query: { session: 0 } });
  expect(res.status).toBe(200);
  const { qrcode: _qrcode, updatedAt: _updatedAt, retries: _retries, ...stable } = res.body;

  return { ...stable, session: server.ctx.channels.state(id)?.status ?? null };
};

const createConnection = async (server: TTestServer, tenant: TTenant) => {
  const res = await server.request('POST', '/api/whatsapp', {
    token: tenant.token,
    body: {
      name: `Beta line ${Math.random().toString(36).slice(2, 8)}`,
      // strong enough to be taken (issue 20 item 5), and found by its marker in answers to A
      token: `beta-token-${randomBytes(24).toString('base64url')}`,
    },
  });
  expect(res.status).toBe(201);
  const id = res.body.id as number;
  // settled on its QR code, so a scan by A would show: in the session and in the stored row (written a moment
  // after the session moves), or B's "before" may still read OPENING
  const end = Date.now() + 10_000;
  const settled = async () =>
    server.ctx.channels.state(id)?.status === 'qrcode' &&
    (await server.request('GET', `/api/whatsapp/${id}`, { token: tenant.token, query: { session: 0 } })).body
      ?.status === 'qrcode';
  while (!(await settled()) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  return id;
};

const customer = '5511988887777';

/** connections and the sandbox simulator: A's admin gets the missing-id 404 on B's connection */
export const CONNECTION_TENANCY_CASES: TTenancyCase[] = [
  {
    name: 'a connection',
    create: createConnection,
    read: readConnection,
    routes: [
      { method: 'GET', path: (id) => `/api/whatsapp/${id}` },
      { method: 'GET', path: (id) => `/api/whatsapp/${id}?session=0` },
      { method: 'PUT', path: (id) => `/api/whatsapp/${id}`, body: { name: 'Hijacked', isDefault: true } },
      { method: 'DELETE', path: (id) => `/api/whatsapp/${id}` },
      { method: 'POST', path: (id) => `/api/whatsappsession/${id}` },
      { method: 'PUT', path: (id) => `/api/whatsappsession/${id}` },
      { method: 'DELETE', path: (id) => `/api/whatsappsession/${id}` },
      { method: 'POST', path: (id) => `/api/whatsappsession/${id}/pairing`, body: { phoneNumber: '5511977776666' } },
    ],
    markers: async (server, tenant, id) => [(await readConnection(server, tenant, id)).name, 'beta-token-'],
  },
  {
    name: 'a sandbox connection (simulator)',
    create: createConnection,
    read: readConnection,
    routes: [
      { method: 'POST', path: (id) => `/api/sandbox/${id}/scan`, body: {} },
      { method: 'POST', path: (id) => `/api/sandbox/${id}/inbound`, body: { from: customer, body: 'hi' } },
      { method: 'GET', path: (id) => `/api/sandbox/${id}/outbox?to=${customer}` },
      { method: 'POST', path: (id) => `/api/sandbox/${id}/read`, body: { to: customer } },
      {
        method: 'POST',
        path: (id) => `/api/sandbox/${id}/edit`,
        body: { from: customer, externalId: 'X1', body: 'x' },
      },
      { method: 'POST', path: (id) => `/api/sandbox/${id}/delete`, body: { from: customer, externalId: 'X1' } },
      { method: 'POST', path: (id) => `/api/sandbox/${id}/call`, body: { from: customer } },
    ],
  },
];
