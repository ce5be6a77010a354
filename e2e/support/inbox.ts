import { crc32, deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { apiCall, apiLogin, createUser, signUpCompany, type TCompanyAdmin, unique } from './api';
import { waitForPath } from './browser';

/** The sandbox WhatsApp network and the inbox, driven through the API where a spec does not test the screens. */

/** one message a simulated customer received (GET /sandbox/:id/outbox) */
export type TOutboxMessage = {
  externalId: string;
  to: string;
  type: 'text' | 'media' | 'location' | 'vcard';
  body: string;
  media?: { mimetype: string; fileName?: string; size: number };
  ack: number;
};

type TStoredMessage = { id: number; body: string; fromMe: boolean; ack: number; mediaType: string | null };

/**
 * A fresh company and the token of a second admin of it. The browser logs in as `admin`; API calls go as the
 * second admin, because a login through the API would end the browser's session (one session per user).
 */
export const companyWithApiAdmin = async (prefix: string): Promise<{ admin: TCompanyAdmin; token: string }> => {
  const admin = await signUpCompany(prefix);
  const adminToken = await apiLogin(admin.email, admin.password);
  const id = unique();
  const helper = { name: `API ${id}`, email: `api-${id}@e2e.test`, password: 'Api-Pass1', profile: 'admin' as const };
  await createUser(adminToken, helper);

  return { admin, token: await apiLogin(helper.email, helper.password) };
};

type TConnectionState = { id: number; status: string; qrcode: string };

export const connectionState = (token: string, id: number) =>
  apiCall<TConnectionState>('GET', `/whatsapp/${id}`, { token });

/**
 * From the side menu to the connections page of a company that has none yet (its empty row shown), then the
 * editor of a new connection; answers the editor.
 */
export const openNewConnectionEditor = async (page: Page) => {
  await page.getByTestId('menu-connections').click();
  await waitForPath(page, '/connections');
  await page.getByTestId('connections-empty').waitFor();
  await page.getByTestId('connections-add').click();

  return page.getByTestId('connection-dialog');
};

/** Polls `probe` until it answers true (also in hooks, where expect.poll is not allowed). */
export const until = async (what: string, probe: () => Promise<boolean>, timeout = 15_000) => {
  const deadline = Date.now() + timeout;
  while (!(await probe())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
};

/** Polls a connection until its status is `status` (the sandbox shows its first QR after ~1 s). */
export const waitForConnectionStatus = (token: string, id: number, status: string) =>
  until(`connection ${id} ${status}`, async () => (await connectionState(token, id)).status === status);

/** A sandbox connection through POST /whatsapp, left waiting with a QR code on screen. */
export const createSandboxConnection = async (token: string, name: string, extra: Record<string, unknown> = {}) => {
  const created = await apiCall<{ id: number }>('POST', '/whatsapp', {
    token,
    body: { name, provider: 'sandbox', ...extra },
  });
  await waitForConnectionStatus(token, created.id, 'qrcode');

  return created.id;
};

/** The simulated phone scans the pending QR code; resolves once the connection is CONNECTED. */
export const pairSandbox = async (token: string, id: number) => {
  await apiCall('POST', `/sandbox/${id}/scan`, { token, body: {} });
  await waitForConnectionStatus(token, id, 'CONNECTED');
};

/** A simulated customer writes a text; answers the message's external id. */
export const customerWrites = (token: string, connectionId: number, from: string, name: string, body: string) =>
  apiCall<{ externalId: string }>('POST', `/sandbox/${connectionId}/inbound`, {
    token,
    body: { from, name, type: 'text', body },
  });

/** What that customer received from the business, oldest first. */
export const customerOutbox = async (token: string, connectionId: number, to: string) =>
  (await apiCall<{ messages: TOutboxMessage[] }>('GET', `/sandbox/${connectionId}/outbox?to=${to}`, { token }))
    .messages;

/** Polls the customer's outbox until a received message passes `match`, and answers it. */
export const waitForOutboxMessage = async (
  token: string,
  connectionId: number,
  to: string,
  match: (message: TOutboxMessage) => boolean,
) => {
  let found: TOutboxMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await customerOutbox(token, connectionId, to)).find(match);

        return found !== undefined;
      },
      { timeout: 15_000, interval: 200 },
    )
    .toBe(true);

  return found as TOutboxMessage;
};

/** The stored messages of a ticket (GET /messages/:ticketId, first page, oldest first). */
export const ticketMessages = async (token: string, ticketId: number) =>
  (await apiCall<{ messages: TStoredMessage[] }>('GET', `/messages/${ticketId}`, { token })).messages;

/** The numeric id at the end of a `<prefix>-<id>` test id. */
export const idOfTestId = async (locator: Locator) => {
  const testId = (await locator.getAttribute('data-testid')) ?? '';
  const id = Number(testId.slice(testId.lastIndexOf('-') + 1));
  expect(id, `id in ${testId}`).toBeGreaterThan(0);

  return id;
};

/** A ticket row of the manager (rows carry data-status; their name cells share the prefix) by its contact. */
export const ticketRowOf = (list: Locator, contactName: string) =>
  list.locator('[data-testid^="ticket-row-"][data-status]').filter({ hasText: contactName });

/**
 * The bubble of one of our messages with that text, once the server stored it (a message being sent has a
 * negative local id) and its id.
 */
export const storedOwnMessage = async (page: Page, text: string) => {
  const bubble = page.locator('[data-from-me="true"]').filter({ hasText: text });
  await expect
    .poll(
      async () =>
        `${await bubble.count()} ${await bubble.evaluateAll((all) => all.map((b) => b.getAttribute('data-testid')).join())}`,
      {
        timeout: 15_000,
        interval: 100,
      },
    )
    .toMatch(/^1 message-\d+$/);

  return { bubble, id: await idOfTestId(bubble) };
};

/** The ack a message's ticks show (data-ack of `message-ack-<id>`). */
export const shownAck = async (page: Page, messageId: number) =>
  Number(await page.getByTestId(`message-ack-${messageId}`).getAttribute('data-ack'));

/** A small RGB PNG of two colour bands, made here so the spec needs no fixture file. */
export const pngImage = (width = 96, height = 64) => {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));

    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0, then the pixels
    for (let x = 0; x < width; x++) {
      const [r, g, b] = y < height / 2 ? [37, 211, 102] : [18, 140, 126];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }

  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};
