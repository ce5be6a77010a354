process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_QR_MS = '5000';
process.env.SANDBOX_ACK_MS = '10';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGraph, type TFakeGraph } from '../../../test/fake-graph';
import { countRows } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { createCloudLine } from '../cloud-api/cloud-api.fixtures';
import { storeMediaFile } from '../messages/media';
import { campaignHelpers } from './campaigns.fixtures';
import { dispatchShipping } from './dispatch';

/** Campaigns with a file list attached, and on a Cloud API connection (its at-least-once crash window). */

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

const { until, connectedSandbox, sql, insertList, outbox, settings, create, inAnHour, runAll } = campaignHelpers(
  () => server,
);

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(64, 2)]);

/** a file list of the company with the given files stored under DATA_DIR/media */
const insertFileList = async (companyId: number, entries: { name: string; data: Buffer; ext: string }[]) => {
  const [list] = await sql(
    "insert into files (company_id, name, message) values ($1, 'Catálogo', 'Veja, {nome}:') returning id",
    [companyId],
  );
  for (const entry of entries) {
    const path = await storeMediaFile(server.ctx.config, entry.data, entry.ext);
    await sql('insert into files_options (company_id, file_id, name, path, media_type) values ($1, $2, $3, $4, $5)', [
      companyId,
      list.id,
      entry.name,
      path,
      entry.ext === 'pdf' ? 'application/pdf' : 'image/png',
    ]);
  }

  return list.id as number;
};

describe('a campaign with a file list', () => {
  it('sends each recipient the list’s message and files, then the message, in order, once each, all in the history', async () => {
    const t = await server.createTenant();
    const conn = await connectedSandbox(t);
    await settings(t, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await insertList(t.companyId, 2);
    const fileListId = await insertFileList(t.companyId, [
      // an option named without its extension is sent with the stored file's (its phone opens it)
      { name: 'Tabela de preços', data: PDF, ext: 'pdf' },
      { name: 'foto.png', data: PNG, ext: 'png' },
    ]);
    const created = await create(t, {
      message1: 'Oi {nome}, segue o catálogo',
      whatsappId: conn,
      contactListId: list.id,
      fileListId,
      scheduledAt: inAnHour(-1),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await runAll();
    const report = await server.request('GET', `/api/campaigns/${created.body.id}/report`, { token: t.token });
    expect(report.body.counts).toMatchObject({ valid: 2, sent: 2, failed: 0 });
    const received = await outbox(t, conn);
    for (const to of list.numbers) {
      const mine = received.filter((m) => m.to === to);
      // the list's own message, its files (the ancestor's queues.ts sends them first), then the campaign's message
      expect(mine.map((m) => (m.type === 'media' ? m.media?.fileName : m.body))).toEqual([
        expect.stringMatching(/^Veja, Pessoa \d:$/),
        'Tabela de preços.pdf',
        'foto.png',
        expect.stringMatching(/^Oi Pessoa \d, segue o catálogo$/),
      ]);
      expect(mine.map((m) => m.type)).toEqual(['text', 'media', 'media', 'text']);
    }
    // each part stored once in the recipient's ticket, the report's row on the message's text
    expect(
      await countRows(server, "select count(*) n from messages where company_id = $1 and source = 'campaign'", [
        t.companyId,
      ]),
    ).toBe(8);
    expect(
      await countRows(
        server,
        "select count(*) n from messages where company_id = $1 and source = 'campaign' and media_type is not null",
        [t.companyId],
      ),
    ).toBe(4);
    const rows = await sql(
      'select s.message, m.body from campaign_shippings s join messages m on m.id = s.message_row_id where s.campaign_id = $1',
      [created.body.id],
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.body).toBe(row.message);
  });
});

describe('a campaign on a Cloud API connection', () => {
  it('a replayed status webhook or a retried send never duplicates; the crash window is marked at-least-once', async () => {
    const t = await server.createTenant();
    const line = await createCloudLine(server, graph, t);
    await settings(t, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const list = await insertList(t.companyId, 3);
    const created = await create(t, {
      message1: 'Promo {nome}',
      whatsappId: line.connectionId,
      contactListId: list.id,
      scheduledAt: inAnHour(-1),
    });
    const campaignId = created.body.id as number;
    await runAll();
    const sentTo = (to: string) =>
      graph.sent.filter((m) => m.phoneNumberId === line.number.phoneNumberId && m.to === to);
    for (const to of list.numbers) expect(sentTo(to)).toHaveLength(1);
    const report = async () =>
      (await server.request('GET', `/api/campaigns/${campaignId}/report`, { token: t.token })).body;
    expect((await report()).counts).toMatchObject({ valid: 3, sent: 3, delivered: 0, atLeastOnce: 0 });

    // Meta delivers its status webhooks at least once: the same "delivered" three times counts once
    const first = sentTo(list.numbers[0]!)[0]!;
    for (let i = 0; i < 3; i++) {
      expect((await graph.setStatus(line.number.phoneNumberId, first.wamid, 'delivered')).status).toBe(200);
    }
    await until(async () => (await report()).counts.delivered === 1);
    expect((await report()).counts).toMatchObject({ sent: 3, delivered: 1, read: 0 });
    expect(
      await countRows(server, "select count(*) n from messages where company_id = $1 and source = 'campaign'", [
        t.companyId,
      ]),
    ).toBe(3);

    const shippings = await sql(
      'select id, message_row_id from campaign_shippings where campaign_id = $1 order by id',
      [campaignId],
    );
    const byNumber = async (shippingId: number) =>
      (await sql('select number from campaign_shippings where id = $1', [shippingId]))[0].number as string;
    // after the plan's times (runAll sent at a day ahead)
    const far = () => new Date(Date.now() + 48 * 3600_000);
    const crashAndRetry = async (shippingId: number) => {
      // the process died before the shipping was recorded: the campaign still running, the recipient queued
      // again, its claim run out
      await sql("update campaigns set status = 'EM_ANDAMENTO', completed_at = null where id = $1", [campaignId]);
      await sql(
        "update campaign_shippings set state = 'queued', attempts = 1, claimed_until = now() - interval '1 minute' where id = $1",
        [shippingId],
      );
      return dispatchShipping(server.ctx, { companyId: t.companyId, campaignId, shippingId }, { now: far });
    };

    // a crash after Meta accepted the send (its wamid stored): the retry finds it and sends nothing
    const accepted = shippings[1]!;
    expect(await crashAndRetry(accepted.id)).toBe('sent');
    expect(sentTo(await byNumber(accepted.id))).toHaveLength(1);
    expect((await sql('select at_least_once from campaign_shippings where id = $1', [accepted.id]))[0]).toEqual({
      at_least_once: false,
    });

    // a crash between storing the message and Meta's answer: the Cloud API takes no id of ours, so the retry
    // sends again (the customer may get two) and the report marks the recipient; the history keeps one row
    const inFlight = shippings[2]!;
    await sql('update messages set external_id = null, ack = 1 where id = $1', [inFlight.message_row_id]);
    expect(await crashAndRetry(inFlight.id)).toBe('sent');
    expect(sentTo(await byNumber(inFlight.id))).toHaveLength(2);
    expect((await sql('select at_least_once from campaign_shippings where id = $1', [inFlight.id]))[0]).toEqual({
      at_least_once: true,
    });
    const after = await report();
    expect(after.counts).toMatchObject({ valid: 3, sent: 3, atLeastOnce: 1 });
    expect(
      await countRows(server, "select count(*) n from messages where company_id = $1 and source = 'campaign'", [
        t.companyId,
      ]),
    ).toBe(3);
    // a job run again for a recipient already sent does nothing
    expect(
      await dispatchShipping(
        server.ctx,
        { companyId: t.companyId, campaignId, shippingId: shippings[0]!.id },
        { now: far },
      ),
    ).toBe('skipped');
    expect(sentTo(list.numbers[0]!)).toHaveLength(1);
  });
});
