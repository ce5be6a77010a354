process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_QR_MS = '5000';
process.env.SANDBOX_ACK_MS = '10';

import { campaignSettingsFromRows, events, rooms } from '@zelo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createLoggedUser, createPlan, openSocket, recordEvents, untilJoined } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { campaignHelpers } from './campaigns.fixtures';
import { setSetting } from '../../../test/inbox';
import { createInboundHandlers } from '../../inbound';
import { updateCampaign } from './campaigns.service';
import { claimDueShippings } from './campaigns.repo';
import {
  CLAIM_MS,
  campaignTick,
  createCampaignSender,
  dispatchShipping,
  messageIdOf,
  newSendCache,
  sendClaimedShipping,
} from './dispatch';
import { planOffsets, planSendTimes } from './interval-plan';

let server: TTestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const { until, connectedSandbox, sql, number, insertList, outbox, settings, create, inAnHour, runAll } =
  campaignHelpers(() => server);

describe('the interval plan', () => {
  it('waits a random 0…messageInterval s per send and greaterInterval after every longerIntervalAfter sends', () => {
    const randoms = [0.5, 0, 0.999, 0.25, 0.1, 0.75];
    let i = 0;
    const offsets = planOffsets({
      count: 6,
      settings: { messageInterval: 20, longerIntervalAfter: 2, greaterInterval: 60 },
      random: () => randoms[i++]!,
    });
    // 10 s, +0, +60 (after 2 sends) +19.98, +5, +60 +2, +15
    expect(offsets).toEqual([10_000, 10_000, 89_980, 94_980, 156_980, 171_980]);
  });

  it('0 = never for longerIntervalAfter; all zero sends at once; times from the injected start', () => {
    expect(
      planOffsets({ count: 4, settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 60 } }),
    ).toEqual([0, 0, 0, 0]);
    const start = new Date('2026-01-01T00:00:00Z');
    const times = planSendTimes({
      count: 3,
      start,
      settings: { messageInterval: 10, longerIntervalAfter: 0, greaterInterval: 120 },
      random: () => 0.5,
    });
    expect(times.map((t) => t.toISOString())).toEqual([
      '2026-01-01T00:00:05.000Z',
      '2026-01-01T00:00:10.000Z',
      '2026-01-01T00:00:15.000Z',
    ]);
  });
});

describe('campaign settings', () => {
  it('answers the defaults, saves the ancestor shape, and refuses duplicate keys and values off the lists', async () => {
    const t = await server.createTenant();
    const first = await server.request('GET', '/api/campaign-settings', { token: t.token });
    expect(first.status).toBe(200);
    // the ancestor's rows, each value JSON text (its CampaignsConfig page parses every one)
    expect(first.body).toEqual([
      { key: 'messageInterval', value: '20' },
      { key: 'longerIntervalAfter', value: '20' },
      { key: 'greaterInterval', value: '60' },
      { key: 'variables', value: '[]' },
    ]);
    const saved = await settings(t, {
      settings: {
        messageInterval: 5,
        longerIntervalAfter: 0,
        greaterInterval: '120',
        variables: [{ key: 'loja', value: 'Centro' }],
      },
    });
    expect(saved.status).toBe(200);
    expect(campaignSettingsFromRows(saved.body)).toEqual({
      messageInterval: 5,
      longerIntervalAfter: 0,
      greaterInterval: 120,
      variables: [{ key: 'loja', value: 'Centro' }],
    });
    // the rows form is accepted back as it was answered
    const rows = await settings(t, [
      { key: 'messageInterval', value: '10' },
      { key: 'variables', value: '[{"key":"loja","value":"Sul"}]' },
    ]);
    expect(rows.status).toBe(200);
    expect(campaignSettingsFromRows(rows.body)).toMatchObject({
      messageInterval: 10,
      greaterInterval: 120,
      variables: [{ key: 'loja', value: 'Sul' }],
    });
    await settings(t, { settings: { messageInterval: 5, variables: [{ key: 'loja', value: 'Centro' }] } });
    const dup = await settings(t, {
      settings: {
        variables: [
          { key: 'a', value: '1' },
          { key: 'a', value: '2' },
        ],
      },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toBe('ERR_VALIDATION');
    expect(dup.body.details).toEqual([expect.objectContaining({ path: 'variables.1.key' })]);
    expect((await settings(t, { messageInterval: 7 })).status).toBe(400);
    expect((await settings(t, { greaterInterval: 1000 })).status).toBe(400);
    // nothing of the refused ones was written
    expect(
      campaignSettingsFromRows((await server.request('GET', '/api/campaign-settings', { token: t.token })).body)
        .variables,
    ).toEqual([{ key: 'loja', value: 'Centro' }]);
  });
});

describe('access', () => {
  it('admins only, the plan flag and the company’s campaignsEnabled, all on the server', async () => {
    const t = await server.createTenant();
    const user = await createLoggedUser(server, t);
    expect((await server.request('GET', '/api/campaigns', { token: user.token })).status).toBe(403);
    expect((await server.request('GET', '/api/campaigns', { token: t.token })).status).toBe(200);
    await setSetting(server, t, 'campaignsEnabled', 'false');
    const off = await server.request('GET', '/api/campaigns', { token: t.token });
    expect(off.status).toBe(403);
    expect(off.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect((await create(t, { message1: 'x' })).status).toBe(403);
    expect((await server.request('GET', '/api/campaign-settings', { token: t.token })).status).toBe(403);
    await setSetting(server, t, 'campaignsEnabled', 'true');
    const superUser = await server.superLogin();
    const plan = await createPlan(server, superUser.token, { useCampaigns: false });
    await server.request('PUT', `/api/companies/${t.companyId}`, { token: superUser.token, body: { planId: plan.id } });
    const again = await server.login(t.email, t.password);
    const denied = await server.request('POST', '/api/campaigns', { token: again.token, body: { name: 'Nope' } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect(await countRows(server, 'select count(*) n from campaigns where company_id = $1', [t.companyId])).toBe(0);
  });

  it('another company’s campaign answers as missing, and another company’s list cannot be linked', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    const listB = await insertList(b.companyId, 1);
    const own = await create(a, { message1: 'oi' });
    expect(own.status).toBe(201);
    const id = own.body.id;
    for (const [method, path] of [
      ['GET', `/api/campaigns/${id}`],
      ['PUT', `/api/campaigns/${id}`],
      ['DELETE', `/api/campaigns/${id}`],
      ['POST', `/api/campaigns/${id}/cancel`],
      ['POST', `/api/campaigns/${id}/restart`],
      ['GET', `/api/campaigns/${id}/report`],
    ] as const) {
      const res = await server.request(method, path, {
        token: b.token,
        body: method === 'PUT' ? { name: 'X1' } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_CAMPAIGN_FOUND');
    }
    expect((await server.request('GET', '/api/campaigns', { token: b.token })).body.count).toBe(0);
    const linked = await create(a, { message1: 'oi', contactListId: listB.id });
    expect(linked.status).toBe(404);
    expect(linked.body).toMatchObject({
      error: 'ERR_NO_CONTACT_LIST_FOUND',
      details: [{ path: 'contactListId', message: 'invalid' }],
    });
  });
});

describe('campaign CRUD and the editability rules', () => {
  it('creates from the ancestor dialog’s shape, lists and searches', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    const list = await insertList(t.companyId, 2);
    const res = await server.request('POST', '/api/campaigns', {
      token: t.token,
      body: {
        name: 'Black Friday',
        message1: 'Oi {nome}',
        message2: '',
        message3: '',
        message4: '',
        message5: '',
        status: 'INATIVA',
        scheduledAt: '',
        whatsappId: conn,
        contactListId: list.id,
        tagListId: 'Nenhuma',
        companyId: t.companyId,
        fileListId: '',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Black Friday',
      status: 'INATIVA',
      tagId: null,
      whatsapp: { id: conn },
      contactList: { id: list.id },
      editable: true,
    });
    expect((await create(t, { name: 'black friday' })).body.error).toBe('ERR_DUPLICATED_CAMPAIGN');
    expect((await create(t, { name: 'B' })).status).toBe(400);
    await create(t, { name: 'Natal' });
    const found = await server.request('GET', '/api/campaigns', { token: t.token, query: { searchParam: 'black' } });
    expect(found.body).toMatchObject({ count: 1, hasMore: false, records: [{ name: 'Black Friday' }] });
    const report = await server.request('GET', `/api/campaigns/${res.body.id}/report`, { token: t.token });
    expect(report.body.counts.valid).toBe(2);
  });

  it('PROGRAMADA needs a connection, an audience and a message; editable only more than an hour ahead', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    const list = await insertList(t.companyId, 1);
    const incomplete = await create(t, { scheduledAt: inAnHour(120), message1: 'x' });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.error).toBe('ERR_CAMPAIGN_INCOMPLETE');
    const later = await create(t, {
      scheduledAt: inAnHour(120),
      message1: 'x',
      whatsappId: conn,
      contactListId: list.id,
    });
    expect(later.body).toMatchObject({ status: 'PROGRAMADA', editable: true });
    const id = later.body.id;
    const edited = await server.request('PUT', `/api/campaigns/${id}`, {
      token: t.token,
      body: { message2: 'y', scheduledAt: inAnHour(30) },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ status: 'PROGRAMADA', message2: 'y', editable: false });
    const locked = await server.request('PUT', `/api/campaigns/${id}`, { token: t.token, body: { message1: 'z' } });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    // the rule with an injected clock: three hours before the start it is editable again
    const clock = { now: () => new Date(Date.now() - 3 * 3600_000) };
    const auth = { companyId: t.companyId } as never;
    expect((await updateCampaign(server.ctx, auth, id, { message1: 'z' }, clock)).message1).toBe('z');
    // clearing the time makes it INATIVA again
    const cleared = await updateCampaign(server.ctx, auth, id, { scheduledAt: null }, clock);
    expect(cleared.status).toBe('INATIVA');
  });
});

describe('dispatch', () => {
  it('sends each valid recipient once, deduplicated by number, in the ticket history, with variables', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    await settings(t, {
      messageInterval: 0,
      longerIntervalAfter: 0,
      greaterInterval: 0,
      variables: [{ key: 'loja', value: 'Centro' }],
    });
    const list = await insertList(t.companyId, 3, 2);
    // a tagged contact with an open ticket, and a tagged contact already on the list
    const [tag] = await sql('insert into tags (company_id, name) values ($1, $2) returning id', [t.companyId, 'VIP']);
    const extra = number();
    const [c1] = await sql('insert into contacts (company_id, name, number) values ($1, $2, $3) returning id', [
      t.companyId,
      'Tagged Open',
      extra,
    ]);
    const [c2] = await sql('insert into contacts (company_id, name, number) values ($1, $2, $3) returning id', [
      t.companyId,
      'Also Listed',
      list.numbers[0],
    ]);
    const [open] = await sql(
      "insert into tickets (company_id, contact_id, whatsapp_id, status) values ($1, $2, $3, 'open') returning id",
      [t.companyId, c1.id, conn],
    );
    const [other] = await sql(
      "insert into tickets (company_id, contact_id, whatsapp_id, status) values ($1, $2, $3, 'closed') returning id",
      [t.companyId, c2.id, conn],
    );
    for (const ticket of [open.id, other.id]) {
      await sql('insert into ticket_tags (company_id, ticket_id, tag_id) values ($1, $2, $3)', [
        t.companyId,
        ticket,
        tag.id,
      ]);
    }
    const created = await create(t, {
      message1: 'Oi {nome}, loja {loja}',
      message2: 'Olá {nome} ({numero})',
      whatsappId: conn,
      contactListId: list.id,
      tagListId: tag.id,
      scheduledAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(created.body.status).toBe('PROGRAMADA');
    await runAll();
    const report = await server.request('GET', `/api/campaigns/${created.body.id}/report`, { token: t.token });
    expect(report.body.campaign.status).toBe('FINALIZADA');
    expect(report.body.counts).toMatchObject({ valid: 4, sent: 4, failed: 0, queued: 0 });
    const received = await outbox(t, conn);
    expect(received.map((m) => m.to).sort()).toEqual([...list.numbers, extra].sort());
    for (const m of received) {
      expect(m.body).toMatch(
        /^(Oi Pessoa \d, loja Centro|Olá Pessoa \d \(\d+\)|Oi Tagged Open, loja Centro|Olá Tagged Open \(\d+\))$/,
      );
    }
    // history: the open ticket got it; a listed number without a contact got a contact and a closed ticket
    expect(
      await countRows(server, "select count(*) n from messages where ticket_id = $1 and source = 'campaign'", [
        open.id,
      ]),
    ).toBe(1);
    expect(
      await countRows(server, "select count(*) n from messages where ticket_id = $1 and source = 'campaign'", [
        other.id,
      ]),
    ).toBe(1);
    const [fresh] = await sql(
      'select t.status from tickets t join contacts c on c.id = t.contact_id where c.company_id = $1 and c.number = $2',
      [t.companyId, list.numbers[1]],
    );
    expect(fresh.status).toBe('closed');
    expect(
      report.body.recipients.records.every((r: { state: string; time: string }) => r.state === 'sent' && r.time),
    ).toBe(true);
    // acks from the sandbox: delivered (3) after its ack steps
    await until(async () => {
      const r = await server.request('GET', `/api/campaigns/${created.body.id}/report`, { token: t.token });
      return r.body.counts.delivered === 4;
    });
  });

  it('a job run twice sends once, and a send retried with its message id keeps one copy on the sandbox', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    await settings(t, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await insertList(t.companyId, 2);
    const created = await create(t, {
      message1: 'Promo',
      whatsappId: conn,
      contactListId: list.id,
      scheduledAt: inAnHour(-1),
    });
    const farFuture = () => new Date(Date.now() + 3600_000);
    // start only (the tick starts due campaigns; nothing is overdue before the plan's times with a negative grace)
    await campaignTick(server.ctx, { now: () => new Date(), graceMs: 3600_000 });
    const rows = await sql('select id from campaign_shippings where campaign_id = $1 order by id', [created.body.id]);
    expect(rows).toHaveLength(2);
    const job = { companyId: t.companyId, campaignId: created.body.id, shippingId: rows[0].id };
    const [a, b] = await Promise.all([
      dispatchShipping(server.ctx, job, { now: farFuture }),
      dispatchShipping(server.ctx, job, { now: farFuture }),
    ]);
    expect([a, b].sort()).toEqual(['sent', 'skipped']);
    expect(await dispatchShipping(server.ctx, job, { now: farFuture })).toBe('skipped');
    expect((await outbox(t, conn)).filter((m) => m.to === list.numbers[0])).toHaveLength(1);

    // a crash after the send left, before it was recorded: the row stays queued, its claim runs out, and the
    // message (stored, unreconciled) is sent again with the same id
    const second = rows[1].id;
    const id = messageIdOf(created.body.id, second, 0);
    const session = server.ctx.channels.local(conn)!;
    await session.sendText(list.numbers[1], 'Promo', { messageId: id });
    await session.sendText(list.numbers[1], 'Promo', { messageId: id });
    expect((await outbox(t, conn)).filter((m) => m.to === list.numbers[1])).toHaveLength(1);
    await sql("update campaign_shippings set attempts = 1, claimed_until = now() - interval '1 minute' where id = $1", [
      second,
    ]);
    expect(await dispatchShipping(server.ctx, { ...job, shippingId: second }, { now: farFuture })).toBe('sent');
    const copies = (await outbox(t, conn)).filter((m) => m.to === list.numbers[1]);
    expect(copies).toHaveLength(1);
    expect(copies[0]!.externalId).toBe(id);
    const [shipping] = await sql('select state, at_least_once from campaign_shippings where id = $1', [second]);
    expect(shipping).toEqual({ state: 'sent', at_least_once: false });
  });

  it('cancel stops the sends; restart sends only to those not sent yet', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    await settings(t, { messageInterval: 10, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await insertList(t.companyId, 5);
    const created = await create(t, {
      message1: 'Oi',
      whatsappId: conn,
      contactListId: list.id,
      scheduledAt: inAnHour(-1),
    });
    const id = created.body.id;
    const start = Date.now();
    await campaignTick(server.ctx, { now: () => new Date(start) });
    const planned = await sql(
      'select id, scheduled_for from campaign_shippings where campaign_id = $1 order by scheduled_for',
      [id],
    );
    expect(planned).toHaveLength(5);
    // send the first two by their plan
    await campaignTick(server.ctx, { now: () => new Date(planned[1].scheduled_for) });
    const sentBefore = await countRows(
      server,
      "select count(*) n from campaign_shippings where campaign_id = $1 and state = 'sent'",
      [id],
    );
    expect(sentBefore).toBeGreaterThanOrEqual(2);
    expect((await server.request('POST', `/api/campaigns/${id}/restart`, { token: t.token })).body.error).toBe(
      'ERR_CAMPAIGN_INVALID_STATUS',
    );
    const cancelled = await server.request('POST', `/api/campaigns/${id}/cancel`, { token: t.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELADA');
    await runAll();
    expect(
      await countRows(server, "select count(*) n from campaign_shippings where campaign_id = $1 and state = 'sent'", [
        id,
      ]),
    ).toBe(sentBefore);
    expect((await outbox(t, conn)).length).toBe(sentBefore);
    // a cancelled campaign still saves its texts, but not its audience
    const saved = await server.request('PUT', `/api/campaigns/${id}`, {
      token: t.token,
      body: { message1: 'Oi de novo', contactListId: null },
    });
    expect(saved.body).toMatchObject({ message1: 'Oi de novo', contactListId: list.id, status: 'CANCELADA' });
    const restarted = await server.request('POST', `/api/campaigns/${id}/restart`, { token: t.token });
    expect(restarted.body.status).toBe('EM_ANDAMENTO');
    expect((await server.request('POST', `/api/campaigns/${id}/restart`, { token: t.token })).status).toBe(409);
    await runAll();
    const received = await outbox(t, conn);
    expect(received.map((m) => m.to).sort()).toEqual([...list.numbers].sort());
    const after = await server.request('GET', `/api/campaigns/${id}`, { token: t.token });
    expect(after.body.status).toBe('FINALIZADA');
    expect(after.body.completedAt).toEqual(expect.any(String));
    // finished: no cancel, no edit
    expect((await server.request('POST', `/api/campaigns/${id}/cancel`, { token: t.token })).status).toBe(409);
    expect(
      (await server.request('PUT', `/api/campaigns/${id}`, { token: t.token, body: { name: 'Outro' } })).status,
    ).toBe(409);
  });

  it('a recipient the transport refuses is failed with its reason; the report pages and filters', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    await settings(t, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await insertList(t.companyId, 22);
    // the sandbox's "not on WhatsApp" numbers start with 000
    await sql(
      "update contact_list_items set number = '00011112222' where id = (select min(id) from contact_list_items where contact_list_id = $1)",
      [list.id],
    );
    const created = await create(t, {
      message1: 'Oi',
      whatsappId: conn,
      contactListId: list.id,
      scheduledAt: inAnHour(-1),
    });
    await runAll();
    const report = await server.request('GET', `/api/campaigns/${created.body.id}/report`, { token: t.token });
    expect(report.body.counts).toMatchObject({ valid: 22, sent: 21, failed: 1 });
    expect(report.body.recipients).toMatchObject({ count: 22, hasMore: true });
    expect(report.body.recipients.records).toHaveLength(20);
    const failed = await server.request('GET', `/api/campaigns/${created.body.id}/report`, {
      token: t.token,
      query: { state: 'failed' },
    });
    expect(failed.body.recipients.records).toEqual([
      expect.objectContaining({
        number: '00011112222',
        state: 'failed',
        error: expect.stringContaining('ERR_WAPP_INVALID_CONTACT'),
      }),
    ]);
    const page2 = await server.request('GET', `/api/campaigns/${created.body.id}/report`, {
      token: t.token,
      query: { pageNumber: 2 },
    });
    expect(page2.body.recipients).toMatchObject({ hasMore: false });
    expect(page2.body.recipients.records).toHaveLength(2);
  });

  it('a recipient whose connection is not connected waits queued instead of failing', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    const list = await insertList(t.companyId, 1);
    const created = await create(t, {
      message1: 'Oi',
      whatsappId: conn,
      contactListId: list.id,
      scheduledAt: inAnHour(-1),
    });
    await campaignTick(server.ctx, { now: () => new Date(), graceMs: 3600_000 });
    expect((await server.request('DELETE', `/api/whatsappsession/${conn}`, { token: t.token })).status).toBe(200);
    await until(() => server.ctx.channels.state(conn)?.status !== 'CONNECTED');
    const [row] = await sql('select id from campaign_shippings where campaign_id = $1', [created.body.id]);
    const job = { companyId: t.companyId, campaignId: created.body.id, shippingId: row.id };
    expect(await dispatchShipping(server.ctx, job, { now: () => new Date(Date.now() + 3600_000) })).toBe('skipped');
    const [after] = await sql(
      'select state, error, claimed_until > now() as held from campaign_shippings where id = $1',
      [row.id],
    );
    expect(after).toEqual({ state: 'queued', error: null, held: true });
  });

  it('delete removes the campaign and its recipients; its pending sends do nothing', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    const list = await insertList(t.companyId, 2);
    const created = await create(t, {
      message1: 'Oi',
      whatsappId: conn,
      contactListId: list.id,
      scheduledAt: inAnHour(-1),
    });
    await campaignTick(server.ctx, { now: () => new Date(), graceMs: 3600_000 });
    const [row] = await sql('select id from campaign_shippings where campaign_id = $1 limit 1', [created.body.id]);
    expect((await server.request('DELETE', `/api/campaigns/${created.body.id}`, { token: t.token })).status).toBe(204);
    expect(
      await dispatchShipping(server.ctx, { companyId: t.companyId, campaignId: created.body.id, shippingId: row.id }),
    ).toBe('skipped');
    expect(await outbox(t, conn)).toHaveLength(0);
  });
});

describe('realtime company-{id}-campaign', () => {
  /** a campaign of two recipients, sent with no intervals, both messages delivered (ack 3) */
  const deliveredCampaignOfTwo = async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    await settings(t, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await insertList(t.companyId, 2);
    const created = await create(t, {
      message1: 'Oi',
      whatsappId: conn,
      contactListId: list.id,
      scheduledAt: inAnHour(-1),
    });
    const id = created.body.id as number;
    await runAll();
    const report = async () =>
      (await server.request('GET', `/api/campaigns/${id}/report`, { token: t.token })).body.counts;
    await until(async () => (await report()).delivered === 2);

    return { t, conn, list, id, report };
  };

  it('an ack after the sends (the customer reads) moves the report’s read count live, with nothing sent', async () => {
    const { t, conn, list, id, report } = await deliveredCampaignOfTwo();
    expect(await report()).toMatchObject({ sent: 2, delivered: 2, read: 0 });
    const admin = await openSocket(server, t.token);
    try {
      await untilJoined(server, rooms.admins(t.companyId));
      const heard = recordEvents(admin);
      // the first recipient reads: only an ack arrives (ack 4), no send and no campaign status change
      const first = (await outbox(t, conn)).find((m) => m.to === list.numbers[0])!;
      const read = await server.request('POST', `/api/sandbox/${conn}/read`, {
        token: t.token,
        body: { to: list.numbers[0], externalIds: [first.externalId] },
      });
      expect(read.status).toBe(200);
      const progress = await heard.waitFor(
        events.campaign(t.companyId),
        (p) => p.action === 'progress' && p.campaignId === id && p.counts.read === 1,
      );
      expect(progress).toMatchObject({ status: 'FINALIZADA', counts: { valid: 2, sent: 2, delivered: 2, read: 1 } });
      expect(await report()).toMatchObject({ read: 1 });
      expect(await outbox(t, conn)).toHaveLength(2);
    } finally {
      admin.close();
    }
  });

  it('an ack the channel reports before the send has recorded its channel id still moves the report live', async () => {
    const { t, conn, list, id, report } = await deliveredCampaignOfTwo();
    const first = (await outbox(t, conn)).find((m) => m.to === list.numbers[0])!;
    // the customer reads a message whose channel id the sender has not recorded yet (a batch records its ids
    // once every send of it has answered): the id is recorded only after the report of the read came in
    const later = `${first.externalId}-recorded-later`;
    // past the report event's throttle (500 ms), so no progress told late by the sends themselves is still due
    await new Promise((r) => setTimeout(r, 1200));
    const admin = await openSocket(server, t.token);
    try {
      await untilJoined(server, rooms.admins(t.companyId));
      const heard = recordEvents(admin);
      await createInboundHandlers(server.ctx).onMessageUpdate({ connectionId: conn, externalId: later, ack: 4 });
      expect(await report()).toMatchObject({ read: 0 });
      await sql('update messages set external_id = $1 where whatsapp_id = $2 and external_id = $3', [
        later,
        conn,
        first.externalId,
      ]);
      const progress = await heard.waitFor(
        events.campaign(t.companyId),
        (p) => p.action === 'progress' && p.campaignId === id && p.counts.read === 1,
      );
      expect(progress).toMatchObject({ counts: { sent: 2, delivered: 2, read: 1 } });
      expect(await report()).toMatchObject({ read: 1 });
    } finally {
      admin.close();
    }
  });

  it('tells the company’s admins of create, update, progress and delete; never another company or a plain user', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    const conn = await connectedSandbox(a);
    await settings(a, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await insertList(a.companyId, 2);
    const agent = await createLoggedUser(server, a);
    const adminA = await openSocket(server, a.token);
    const adminB = await openSocket(server, b.token);
    const userA = await openSocket(server, agent.token);
    try {
      await untilJoined(server, rooms.admins(a.companyId));
      await untilJoined(server, rooms.admins(b.companyId));
      const heardA = recordEvents(adminA);
      const heardB = recordEvents(adminB);
      const heardUser = recordEvents(userA);
      const event = events.campaign(a.companyId);
      const created = await create(a, {
        message1: 'Oi',
        whatsappId: conn,
        contactListId: list.id,
        scheduledAt: inAnHour(-1),
      });
      const id = created.body.id;
      await heardA.waitFor(event, (p) => p.action === 'create' && p.record.id === id);
      await runAll();
      await heardA.waitFor(
        event,
        (p) => p.action === 'update' && p.record.id === id && p.record.status === 'EM_ANDAMENTO',
      );
      const done = await heardA.waitFor(event, (p) => p.action === 'progress' && p.status === 'FINALIZADA');
      expect(done).toMatchObject({ campaignId: id, counts: { valid: 2, sent: 2 } });
      await server.request('DELETE', `/api/campaigns/${id}`, { token: a.token });
      await heardA.waitFor(event, (p) => p.action === 'delete' && p.id === id);
      await settings(a, { variables: [{ key: 'k', value: 'secret-of-a' }] });
      await heardA.waitFor(events.campaignSettings(a.companyId));
      await new Promise((r) => setTimeout(r, 300));
      const leaked = [...heardB.heard, ...heardUser.heard].filter((h) => /campaign/i.test(h.event));
      expect(leaked).toEqual([]);
    } finally {
      adminA.close();
      adminB.close();
      userA.close();
    }
  });
});

describe('the campaign sender', () => {
  /** a running campaign of `size` recipients planned by the tick at `now` with the given intervals */
  const running = async (size: number, intervals: Record<string, number>) => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    await settings(t, intervals);
    const list = await insertList(t.companyId, size);
    const created = await create(t, {
      message1: 'Oi {nome}',
      whatsappId: conn,
      contactListId: list.id,
      scheduledAt: inAnHour(-1),
    });
    const now = new Date();
    await campaignTick(server.ctx, { now: () => now, graceMs: 3600_000 });
    const id = created.body.id as number;
    expect((await sql('select status from campaigns where id = $1', [id]))[0].status).toBe('EM_ANDAMENTO');

    return { t, conn, list, id };
  };

  it('two senders claiming in small batches send every recipient exactly once and finish the campaign', async () => {
    const { t, conn, list, id } = await running(12, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const later = () => new Date(Date.now() + 60_000);
    const a = createCampaignSender(server.ctx, { now: later, batch: 3, concurrency: 2 });
    const b = createCampaignSender(server.ctx, { now: later, batch: 3, concurrency: 2 });
    const [na, nb] = await Promise.all([a.pass(), b.pass()]);
    expect(na + nb).toBe(12);
    const received = (await outbox(t, conn)).map((m) => m.to);
    expect(received.sort()).toEqual([...list.numbers].sort());
    const rows = await sql('select state, attempts from campaign_shippings where campaign_id = $1', [id]);
    expect(rows.every((r) => r.state === 'sent' && r.attempts === 1)).toBe(true);
    expect((await sql('select status from campaigns where id = $1', [id]))[0].status).toBe('FINALIZADA');
    expect(await a.pass()).toBe(0);
  });

  it('plans names with quotes, backslashes and commas as they are', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    const list = await insertList(t.companyId, 1);
    const odd = 'Ana "A\\B", {C} NULL';
    await sql('update contact_list_items set name = $1, email = $2 where contact_list_id = $3', [odd, '', list.id]);
    const created = await create(t, {
      message1: 'Oi',
      whatsappId: conn,
      contactListId: list.id,
      scheduledAt: inAnHour(-1),
    });
    await campaignTick(server.ctx, { now: () => new Date(), graceMs: 3600_000 });
    const rows = await sql(
      'select name, email, number, contact_list_item_id from campaign_shippings where campaign_id = $1',
      [created.body.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: odd, email: '', number: list.numbers[0] });
    expect(rows[0].contact_list_item_id).toBeGreaterThan(0);
  });

  it('a recipient claimed before a cancel is given back, not sent', async () => {
    const { t, conn, id } = await running(2, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const at = new Date(Date.now() + 60_000);
    const claimed = await claimDueShippings(server.database.db, {
      now: at,
      dueBy: at,
      holdUntil: new Date(at.getTime() + CLAIM_MS),
      limit: 10,
    });
    const mine = claimed.filter((r) => r.campaignId === id);
    expect(mine).toHaveLength(2);
    expect((await server.request('POST', `/api/campaigns/${id}/cancel`, { token: t.token })).status).toBe(200);
    const cache = newSendCache();
    for (const row of mine)
      expect(await sendClaimedShipping(server.ctx, row, cache, { now: () => at })).toBe('skipped');
    expect(await outbox(t, conn)).toEqual([]);
    const rows = await sql('select state from campaign_shippings where campaign_id = $1', [id]);
    expect(rows.map((r) => r.state)).toEqual(['queued', 'queued']);
    // a restart sends them (claims given back are free again)
    expect((await server.request('POST', `/api/campaigns/${id}/restart`, { token: t.token })).status).toBe(200);
    await createCampaignSender(server.ctx, { now: () => new Date(Date.now() + 60_000) }).pass();
    expect(await outbox(t, conn)).toHaveLength(2);
  });

  it('its timer sends each recipient at its planned time, one a second', async () => {
    const { t, conn, id } = await running(3, { messageInterval: 0, longerIntervalAfter: 1, greaterInterval: 1 });
    // a poll longer than the test: only the timer for the next planned send can make them leave
    const sender = createCampaignSender(server.ctx, { pollMs: 60_000 });
    const startedAt = Date.now();
    sender.start();
    try {
      await until(async () => (await outbox(t, conn)).length === 3, 15_000);
    } finally {
      await sender.stop();
    }
    const rows = await sql(
      `select delivered_at, scheduled_for from campaign_shippings
       where campaign_id = $1 and state = 'sent' order by scheduled_for`,
      [id],
    );
    expect(rows).toHaveLength(3);
    for (const r of rows) {
      const planned = new Date(r.scheduled_for).getTime();
      const sent = new Date(r.delivered_at).getTime();
      // never before its time (the claim's slack is 20 ms), and recorded soon after it (or after the start, for one
      // already due then): the send's own time, seconds at most on a busy machine, never the poll's minute
      expect(sent - planned).toBeGreaterThan(-25);
      expect(sent - Math.max(planned, startedAt)).toBeLessThan(5000);
    }
  });
});
