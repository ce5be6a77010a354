import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe } from 'vitest';
import { useOutboundAllowList } from '../../lib/outbound';
import { startFakeGraph, type TFakeGraph, type TFakeSent } from '../../../test/fake-graph';
import { channelConformance, type TFarMessage, type TFarSide } from '../conformance';
import type { TChannelEvents, TChannelSession } from '../types';
import { createCloudApiDriver, type TCloudApiSession } from './cloud-api.driver';
import { createMemoryWebhookInbox } from './inbox';
import { isValidSignature } from './signature';

/**
 * The conformance suite against the fake Graph API: sends go to Graph over HTTP, and everything the
 * customer does comes back as signed webhooks POSTed to a receiver that checks the signature, stores the
 * raw body in the inbox and lets the session drain it (what the webhook route does in the server).
 */

const PHONE_NUMBER_ID = '109876543210987';
const CONNECTION_ID = 41;

let graph: TFakeGraph;
let receiver: http.Server;
let latest: TCloudApiSession | undefined;
const inbox = createMemoryWebhookInbox();

beforeAll(async () => {
  // the fake Graph API listens on loopback: the operator's allow list lets the guard through to it
  useOutboundAllowList(['127.0.0.1']);
  graph = await startFakeGraph();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      if (!isValidSignature(raw, req.headers['x-hub-signature-256'], graph.number(PHONE_NUMBER_ID).appSecret)) {
        res.writeHead(401).end();
        return;
      }
      await inbox.add(CONNECTION_ID, raw.toString('utf8'));
      res.writeHead(200).end();
      void latest?.drain();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  graph.addNumber({
    phoneNumberId: PHONE_NUMBER_ID,
    tokenValid: false,
    autoStatuses: true,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`,
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await graph.close();
});

const ACK: Record<TFakeSent['status'], number> = { accepted: 1, sent: 2, delivered: 3, read: 4, failed: 0 };

/** a fake-side vCard of the Cloud API contact the customer received */
const vcardOf = (contact: Record<string, any> | undefined) =>
  contact
    ? [
        'BEGIN:VCARD',
        `FN:${contact.name?.formatted_name ?? ''}`,
        ...(contact.phones ?? []).map((p: { phone: string }) => `TEL:${p.phone}`),
        'END:VCARD',
      ].join('\n')
    : undefined;

const farMessage = (m: TFakeSent): TFarMessage => {
  const part = m.body[m.type] ?? {};

  return {
    externalId: m.wamid,
    type: m.type,
    body: m.type === 'text' ? part.body : (part.caption ?? ''),
    ack: ACK[m.status],
    edited: false,
    deleted: false,
    ...(part.id ? { media: { mimetype: mediaType(part.id) } } : {}),
    ...(m.type === 'location' ? { location: { latitude: part.latitude, longitude: part.longitude } } : {}),
    ...(m.type === 'contacts' ? { vcard: vcardOf(m.body.contacts?.[0]) } : {}),
    ...(m.body.context?.message_id ? { quotedExternalId: m.body.context.message_id } : {}),
  };
};

/** the type Graph stored for an uploaded media id (GET /{media-id}) */
const mediaTypes = new Map<string, string>();
const mediaType = (id: string) => mediaTypes.get(id) ?? '';

const far: TFarSide = {
  customer: '5511988887777',
  notOnWhatsApp: '000119999999',
  pairingIsSettings: true,
  cannotEditSent: true,
  // the admin fixes the token in Meta's console, then presses "try again"
  pair: async (session) => {
    graph.number(PHONE_NUMBER_ID).tokenValid = true;
    await session.start();
  },
  customerSends: async (_session, message) => {
    const context = message.quotedExternalId ? { context: { from: message.from, id: message.quotedExternalId } } : {};
    let body: Record<string, unknown>;
    if (message.type === 'text') body = { type: 'text', text: { body: message.body ?? '' } };
    else if (message.type === 'image') {
      const id = graph.addMedia(PHONE_NUMBER_ID, message.media!.data, message.media!.mimetype);
      body = { type: 'image', image: { id, mime_type: message.media!.mimetype, caption: message.body } };
    } else if (message.type === 'location') body = { type: 'location', location: { ...message.location } };
    else {
      const name = /FN:(.*)/.exec(message.vcard ?? '')?.[1] ?? '';
      const waid = /waid=(\d+)/.exec(message.vcard ?? '')?.[1];
      body = {
        type: 'contacts',
        contacts: [{ name: { formatted_name: name, first_name: name }, phones: [{ phone: `+${waid}`, wa_id: waid }] }],
      };
    }
    const { externalId } = await graph.customerSends(PHONE_NUMBER_ID, message.from, { ...body, ...context });

    return { externalId };
  },
  received: async (_session, customer) => {
    const list = graph.sentTo(PHONE_NUMBER_ID, customer);
    for (const m of list) {
      const id = m.body[m.type]?.id;
      if (id && !mediaTypes.has(id)) {
        const res = await fetch(`${graph.url}/${graph.version}/${id}`, {
          headers: { authorization: `Bearer ${graph.number(PHONE_NUMBER_ID).accessToken}` },
        });
        mediaTypes.set(id, ((await res.json()) as { mime_type: string }).mime_type);
      }
    }

    return list.map(farMessage);
  },
  customerReads: async (_session, _customer, ids) => {
    for (const id of ids) await graph.setStatus(PHONE_NUMBER_ID, id, 'read');
  },
};

describe('cloud-api driver conformance (fake Graph API)', () => {
  const factory = createCloudApiDriver({
    configSource: async () => {
      const number = graph.number(PHONE_NUMBER_ID);

      return {
        companyId: 1,
        lang: 'pt',
        config: {
          phoneNumberId: number.phoneNumberId,
          businessAccountId: number.businessAccountId,
          accessToken: number.accessToken,
          appSecret: number.appSecret,
          verifyToken: 'verify-me',
          graphUrl: graph.url,
          graphVersion: graph.version,
        },
      };
    },
    inbox,
    log: pino({ level: 'silent' }),
    retry: { backoffMs: [20], timeoutMs: 2000 },
    pollMs: 50,
  });
  channelConformance({
    create: (events: TChannelEvents): TChannelSession => {
      latest = factory({ id: CONNECTION_ID, companyId: 1, provider: 'cloud-api' }, events) as TCloudApiSession;

      return latest;
    },
    far,
  });
});
