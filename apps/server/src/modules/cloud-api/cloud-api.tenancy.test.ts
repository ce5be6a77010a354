import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../channels/cloud-api/signature';
import { startFakeGraph, type TFakeGraph } from '../../../test/fake-graph';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { checkTenancyCase, type TTenancyCase } from '../../../test/tenancy';
import { createCloudLine, storedByExternalId, until } from './cloud-api.fixtures';

let server: TTestServer;
let graph: TFakeGraph;
beforeAll(async () => {
  server = await startTestServer();
  graph = await startFakeGraph();
});
afterAll(async () => {
  await server.close();
  await graph.close();
});

/** a ticket of the tenant on a Cloud API connection, made by a customer's signed webhook */
const cloudTicket: TTenancyCase['create'] = async (s, tenant) => {
  const line = await createCloudLine(s, graph, tenant);
  const sent = await graph.customerSends(line.number.phoneNumberId, '5511977771234', {
    type: 'text',
    text: { body: 'oi' },
  });
  await until('stored', async () => (await storedByExternalId(s, line.connectionId, sent.externalId)).length > 0);

  return (await storedByExternalId(s, line.connectionId, sent.externalId))[0].ticket_id;
};

const WINDOW_CASE: TTenancyCase = {
  name: 'a Cloud API ticket (its 24-hour window)',
  create: cloudTicket,
  routes: [{ method: 'GET', path: (id) => `/api/tickets/${id}/window` }],
};

describe('cross-tenant access', () => {
  it("A's admin gets the missing-id 404 on the window of B's ticket, and B still reads it", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    await checkTenancyCase(server, a, b, WINDOW_CASE);
  });
});

describe('Cloud API routes across companies', () => {
  it('declares the webhook public and the window for users', () => {
    const decl = Object.fromEntries(server.app.declaredRoutes.map((r) => [`${r.method} ${r.url}`, r.decl?.auth]));
    expect(decl).toMatchObject({
      'GET /api/channels/cloud-api/:connectionId/webhook': 'public',
      'POST /api/channels/cloud-api/:connectionId/webhook': 'public',
      'GET /api/tickets/:ticketId/window': 'user',
    });
  });

  it("a webhook signed with company A's app secret can not write into company B's connection", async () => {
    const a = await server.createTenant('Alpha');
    const b = await server.createTenant('Beta');
    const lineA = await createCloudLine(server, graph, a);
    const lineB = await createCloudLine(server, graph, b);
    const built = graph.messagePayload(lineB.number.phoneNumberId, '5511966661234', {
      type: 'text',
      text: { body: 'injected' },
    });
    const raw = JSON.stringify(built.payload);
    const res = await fetch(`${server.url}${lineB.webhookPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, lineA.number.appSecret) },
      body: raw,
    });
    expect(res.status).toBe(401);
    // and A's verify token does not verify B's webhook
    const verify = await fetch(
      `${server.url}${lineB.webhookPath}?hub.mode=subscribe&hub.verify_token=${lineA.verifyToken}&hub.challenge=7`,
    );
    expect(verify.status).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await storedByExternalId(server, lineB.connectionId, built.id)).toHaveLength(0);
  });
});
