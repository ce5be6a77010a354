process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_QR_MS = '5000';
process.env.SANDBOX_ACK_MS = '10';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { campaignHelpers } from '../campaigns/campaigns.fixtures';
import { insertClosedTicket } from '../campaigns/campaigns.repo';
import { type TManyInput, sendManyOnce } from './send-many';

/**
 * `sendManyOnce`, the batch send of campaigns and schedules, directly: each send is stored once under its clientId,
 * sent once, and a repeat of the whole batch (a job run again after a crash) sends nothing already reconciled and
 * sends an unfinished row again with the same transport id.
 */

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const { until, connectedSandbox, sql, outbox } = campaignHelpers(() => server);

/** a closed ticket per customer number on the connection, and the batch's inputs for them */
const batchFor = async (companyId: number, connectionId: number, numbers: string[], tag: string) => {
  const inputs: TManyInput[] = [];
  for (const [i, number] of numbers.entries()) {
    const [contact] = await sql(
      'insert into contacts (company_id, name, number, whatsapp_id) values ($1, $2, $3, $4) returning id',
      [companyId, `Cliente ${i}`, number, connectionId],
    );
    const ticket = await insertClosedTicket(server.ctx.db, {
      companyId,
      contactId: contact.id,
      whatsappId: connectionId,
      at: new Date(),
    });
    inputs.push({
      companyId,
      ticket: { id: ticket.id, contactId: contact.id, whatsappId: connectionId, isGroup: false },
      to: number,
      source: 'campaign',
      clientId: `${tag}-${i}`,
      messageId: `3EB0${tag.toUpperCase()}${String(i).padStart(4, '0')}`,
      body: `Olá ${i}`,
    });
  }

  return inputs;
};

describe('sendManyOnce', () => {
  it('stores and sends each once, sends nothing reconciled again, and resends an unfinished row with its id', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    const numbers = ['5511971000001', '5511971000002', '5511971000003'];
    const inputs = await batchFor(t.companyId, conn, numbers, 'batch');

    const first = await sendManyOnce(server.ctx, t.companyId, inputs);
    expect(first.map((o) => o.ok)).toEqual([true, true, true]);
    const ids = first.map((o) => (o.ok ? o.result.messageRowId : 0));
    await until(async () => (await outbox(t, conn)).length === 3);
    const rows = await sql(
      'select id, client_id, body, external_id, ack from messages where company_id = $1 order by id',
      [t.companyId],
    );
    expect(rows.map((r) => [Number(r.id), r.client_id, r.body])).toEqual(
      inputs.map((input, i) => [ids[i], input.clientId, input.body]),
    );
    expect(rows.every((r) => r.external_id && r.ack >= 1)).toBe(true);
    // the tickets show their message as the last one
    const tickets = await sql('select last_message from tickets where company_id = $1 order by id', [t.companyId]);
    expect(tickets.map((r) => r.last_message)).toEqual(['Olá 0', 'Olá 1', 'Olá 2']);

    // the same batch again (a job repeated): nothing new stored, nothing sent
    const again = await sendManyOnce(server.ctx, t.companyId, inputs);
    expect(again).toEqual(ids.map((id) => ({ ok: true, result: { messageRowId: id, retried: false } })));
    expect(await sql('select count(*)::int as n from messages where company_id = $1', [t.companyId])).toEqual([
      { n: 3 },
    ]);

    // a crash between store and reconcile leaves a row unfinished: it is sent again with the same transport id
    await sql('update messages set external_id = null, ack = 0 where id = $1', [ids[1]]);
    const retried = await sendManyOnce(server.ctx, t.companyId, inputs);
    expect(retried[1]).toEqual({ ok: true, result: { messageRowId: ids[1], retried: true } });
    const [row] = await sql('select external_id, ack from messages where id = $1', [ids[1]]);
    expect(row.external_id).toBe(inputs[1]!.messageId);
    expect(row.ack).toBeGreaterThanOrEqual(1);
    // the sandbox honours the id: the customer still has one copy
    await new Promise((r) => setTimeout(r, 100));
    const received = (await outbox(t, conn)).filter((m) => m.to === numbers[1]);
    expect(received.map((m) => m.body)).toEqual(['Olá 1']);
  });

  it('stores nothing for a connection that is not connected, and says why per send', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    const inputs = await batchFor(t.companyId, conn, ['5511971000009'], 'off');
    await server.ctx.channels.stop(conn);
    const [outcome] = await sendManyOnce(server.ctx, t.companyId, inputs);
    expect(outcome?.ok).toBe(false);
    expect((outcome as { error: { code?: string } }).error.code).toBe('ERR_WAPP_NOT_INITIALIZED');
    expect(await sql('select count(*)::int as n from messages where company_id = $1', [t.companyId])).toEqual([
      { n: 0 },
    ]);
  });
});
