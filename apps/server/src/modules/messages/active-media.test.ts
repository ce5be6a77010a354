process.env.SANDBOX_OPENING_MS = '10';
process.env.SANDBOX_ACK_MS = '10';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { storedExtension } from './media';

/** A file a browser would run (XHTML with a script) never keeps an extension that lets it run (issue 10 item 1). */

let server: TTestServer;
let tenant: Awaited<ReturnType<TTestServer['createTenant']>>;
let connectionId: number;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
  const res = await server.request('POST', '/api/whatsapp', { token: tenant.token, body: { name: unique('Sandbox') } });
  expect(res.status).toBe(201);
  connectionId = res.body.id;
  const end = Date.now() + 10_000;
  while (server.ctx.channels.state(connectionId)?.status !== 'qrcode') {
    if (Date.now() > end) throw new Error('the sandbox connection never showed its QR code');
    await new Promise((r) => setTimeout(r, 20));
  }
  const scan = await server.request('POST', `/api/sandbox/${connectionId}/scan`, { token: tenant.token, body: {} });
  expect(scan.status).toBe(200);
});
afterAll(() => server.close());

const XHTML =
  '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body>' +
  '<script>localStorage.setItem("ran", "1")</script></body></html>\n';

type TStored = { ticketId: number; mediaUrl: string; mediaName: string; mediaMime: string };
const storedMedia = async (externalId: string) => {
  const { rows } = await server.database.executeSql(
    `select ticket_id as "ticketId", media_url as "mediaUrl", media_name as "mediaName", media_mime as "mediaMime"
       from messages where company_id = $1 and external_id = $2`,
    [tenant.companyId, externalId],
  );

  return rows[0] as TStored | undefined;
};

const expectServedAsDownload = async (mediaUrl: string) => {
  const res = await fetch(`${server.url}/public/${mediaUrl.split('/').pop()}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toBe('attachment');
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(await res.text()).toBe(XHTML);
};

describe('active content in media', () => {
  it("stores a customer's invoice.xml as text, keeping its name only as the message's name", async () => {
    const res = await server.request('POST', `/api/sandbox/${connectionId}/inbound`, {
      token: tenant.token,
      body: {
        from: '5511988880001',
        type: 'document',
        body: 'invoice.xml',
        media: { data: Buffer.from(XHTML).toString('base64'), mimetype: 'application/xml', fileName: 'invoice.xml' },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expect.poll(() => storedMedia(res.body.externalId), { timeout: 10_000, interval: 50 }).toBeDefined();
    const message = (await storedMedia(res.body.externalId))!;
    expect(message.mediaUrl).toMatch(/^[0-9a-f]{32}\.txt$/);
    expect(message).toMatchObject({ mediaName: 'invoice.xml', mediaMime: 'text/plain' });
    await expectServedAsDownload(message.mediaUrl);

    // the agent answers with the same kinds of files
    const accepted = await server.request('PUT', `/api/tickets/${message.ticketId}`, {
      token: tenant.token,
      body: { status: 'open' },
    });
    expect(accepted.status).toBe(200);
    const form = new FormData();
    const names = ['invoice.xml', 'page.html', 'logo.svg', 'app.js', 'feed.xhtml', 'style.xsl'];
    for (const name of names) form.append('medias', new Blob([XHTML], { type: 'application/xml' }), name);
    const sent = await fetch(`${server.url}/api/messages/${message.ticketId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}` },
      body: form,
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const messages = (await sent.json()) as { mediaUrl: string; mediaName: string }[];
    expect(messages.map((m) => m.mediaName)).toEqual(names);
    for (const m of messages) {
      expect(m.mediaUrl).toMatch(/\/public\/[0-9a-f]{32}\.txt$/);
      await expectServedAsDownload(m.mediaUrl);
    }
  });

  it('never stores a file under an extension a browser treats as active', () => {
    const active = ['html', 'htm', 'xhtml', 'xht', 'xml', 'xsl', 'xslt', 'svg', 'svgz', 'js', 'mjs', 'cjs'];
    for (const ext of [...active, 'shtml', 'mht', 'mhtml', 'swf', 'HTML', 'php', '']) {
      expect(storedExtension(ext), ext).toBe('bin');
    }
    for (const ext of ['png', 'pdf', 'ogg', 'mp4', 'txt', 'docx', 'csv']) expect(storedExtension(ext)).toBe(ext);
  });
});
