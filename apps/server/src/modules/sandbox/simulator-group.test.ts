process.env.SANDBOX_OPENING_MS = '0';
process.env.SANDBOX_ACK_MS = '0';

import { sandboxGroupId } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { connectSandbox } from '../../../test/inbox';
import { createInboundHandlers } from '../../inbound';

/**
 * Issue 22 B.19: the simulator's screen plays a group too — a member writes in a group named on the screen, the
 * business answers the group, and the simulator reads that answer by the group's id; a customer can call.
 */

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.ctx.channels.setEvents(createInboundHandlers(server.ctx));
});
afterAll(async () => {
  await server.close();
});

describe('the simulator, a group and a call', () => {
  it("a member writes in a group; the business's answer to the group is read back by the group's id", async () => {
    const tenant = await server.createTenant();
    const id = await connectSandbox(server, tenant.token);
    // groups are ignored by default (setting CheckMsgIsGroup)
    await server.request('PUT', '/api/settings/CheckMsgIsGroup', { token: tenant.token, body: { value: 'disabled' } });
    const group = sandboxGroupId('Família Souza');
    expect(group).toBe('grupo-familia-souza');
    const sent = await server.request('POST', `/api/sandbox/${id}/inbound`, {
      token: tenant.token,
      body: { from: '5511977770001', name: 'Ana', body: 'Oi, grupo', group: { id: group, name: 'Família Souza' } },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    let ticketId = 0;
    for (let i = 0; i < 200 && !ticketId; i++) {
      const list = await server.request('GET', '/api/tickets', {
        token: tenant.token,
        query: { status: 'pending', showAll: true },
      });
      ticketId = list.body.tickets.find((t: { isGroup: boolean }) => t.isGroup)?.id ?? 0;
      if (!ticketId) await new Promise((r) => setTimeout(r, 20));
    }
    expect(ticketId).toBeGreaterThan(0);
    await server.request('PUT', `/api/tickets/${ticketId}`, { token: tenant.token, body: { status: 'open' } });
    const reply = await server.request('POST', `/api/messages/${ticketId}`, {
      token: tenant.token,
      body: { body: 'Olá a todos!' },
    });
    expect(reply.status).toBeLessThan(300);
    const box = await server.request('GET', `/api/sandbox/${id}/outbox`, { token: tenant.token, query: { to: group } });
    expect(box.status, JSON.stringify(box.body)).toBe(200);
    expect(box.body.messages.map((m: { body: string }) => m.body)).toContain('Olá a todos!');
    const read = await server.request('POST', `/api/sandbox/${id}/read`, { token: tenant.token, body: { to: group } });
    expect(read.status).toBe(200);

    const call = await server.request('POST', `/api/sandbox/${id}/call`, {
      token: tenant.token,
      body: { from: '5511977770002', isVideo: true },
    });
    expect(call.status, JSON.stringify(call.body)).toBeLessThan(300);
  });
});
