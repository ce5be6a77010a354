import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useOutboundAllowList } from '../../lib/outbound';
import { startFakeGraph, type TFakeGraph, type TFakeNumber } from '../../../test/fake-graph';
import type { TChannelEvents, TConnectionState, TInboundMessage, TMedia } from '../types';
import { createCloudApiDriver, type TCloudApiSession } from './cloud-api.driver';
import { createGraphClient, GraphError } from './graph-client';
import { createMemoryWebhookInbox, type TWebhookInbox } from './inbox';

let graph: TFakeGraph;
beforeAll(async () => {
  // the fake Graph API listens on loopback: the operator's allow list lets the guard through to it
  useOutboundAllowList(['127.0.0.1']);
  graph = await startFakeGraph();
});
afterAll(() => graph.close());

let seq = 0;
const newNumber = (fields: Partial<TFakeNumber> = {}) => {
  seq += 1;
  return graph.addNumber({ phoneNumberId: `20000000000${seq}`, ...fields });
};

const configOf = (number: TFakeNumber, graphUrl = graph.url) => ({
  phoneNumberId: number.phoneNumberId,
  businessAccountId: number.businessAccountId,
  accessToken: number.accessToken,
  appSecret: number.appSecret,
  verifyToken: 'v',
  graphUrl,
  graphVersion: graph.version,
});

const session = (
  number: TFakeNumber,
  states: TConnectionState[] = [],
  opts: { graphUrl?: string; maxStartRetries?: number; inbox?: TWebhookInbox; messages?: TInboundMessage[] } = {},
) => {
  const events: TChannelEvents = {
    onState: async (s) => {
      states.push(s);
    },
    onMessage: async (m) => {
      opts.messages?.push(m);
    },
    onMessageUpdate: async () => undefined,
    onCall: async () => undefined,
  };
  const factory = createCloudApiDriver({
    configSource: async () => ({ companyId: 1, lang: 'pt', config: configOf(number, opts.graphUrl) }),
    inbox: opts.inbox ?? createMemoryWebhookInbox(),
    log: pino({ level: 'silent' }),
    retry: { backoffMs: [10], timeoutMs: 300 },
    startBackoffMs: [10],
    maxStartRetries: opts.maxStartRetries ?? 3,
    pollMs: 60_000,
  });

  return factory({ id: 100 + seq, companyId: 1, provider: 'cloud-api' }, events) as TCloudApiSession;
};

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const connected = async (number: TFakeNumber) => {
  const states: TConnectionState[] = [];
  const s = session(number, states);
  await s.start();
  await until(() => states.at(-1)?.status === 'CONNECTED');

  return { s, states };
};

describe('Graph API client', () => {
  it('honours Retry-After on 429 and succeeds on the next attempt', async () => {
    const number = newNumber();
    const client = createGraphClient(configOf(number), {
      attempts: 3,
      backoffMs: [10],
      timeoutMs: 2000,
      maxRetryAfterMs: 5000,
    });
    graph.fault({ kind: 'status', status: 429, retryAfter: 1 }, 1);
    const started = Date.now();
    const answer = await client.call<{ id: string }>('GET', number.phoneNumberId);
    expect(answer.id).toBe(number.phoneNumberId);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives up after its attempts on a hanging or failing Graph, and never retries a 4xx', async () => {
    const number = newNumber();
    const client = createGraphClient(configOf(number), {
      attempts: 2,
      backoffMs: [10],
      timeoutMs: 150,
      maxRetryAfterMs: 100,
    });
    graph.fault({ kind: 'hang' }, 2);
    await expect(client.call('GET', number.phoneNumberId)).rejects.toMatchObject({
      status: 0,
      retryable: true,
      message: 'Graph API did not answer in time',
    });
    graph.fault({ kind: 'status', status: 503 }, 2);
    await expect(client.call('GET', number.phoneNumberId)).rejects.toMatchObject({ status: 503 });
    const before = graph.calls.length;
    graph.fault({ kind: 'graph', status: 400, code: 100, message: '(#100) Invalid parameter' }, 1);
    const err = await client.call('GET', number.phoneNumberId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphError);
    expect(err).toMatchObject({ status: 400, code: 100, retryable: false });
    expect(graph.calls.length - before).toBe(1);
  });
});

describe('cloud-api session', () => {
  it('counts retries while Graph is unreachable, then settles DISCONNECTED without throwing', async () => {
    const states: TConnectionState[] = [];
    const s = session(newNumber(), states, { graphUrl: 'http://127.0.0.1:9', maxStartRetries: 3 });
    await s.start();
    await until(() => states.at(-1)?.status === 'DISCONNECTED');
    expect(states.map((x) => `${x.status}:${x.retries}`)).toEqual([
      'OPENING:0',
      'OPENING:1',
      'OPENING:2',
      'DISCONNECTED:3',
    ]);
    await s.stop();
  });

  it('reports CONNECTED with the display number, DISCONNECTED at once when Meta refuses the token', async () => {
    const { s, states } = await connected(newNumber({ displayPhoneNumber: '+1 555-078-3881' }));
    expect(states.at(-1)?.phoneNumber).toBe('15550783881');
    await s.stop();
    const refused: TConnectionState[] = [];
    const bad = session(newNumber({ tokenValid: false }), refused);
    await bad.start();
    await until(() => refused.at(-1)?.status === 'DISCONNECTED');
    expect(refused.map((x) => x.status)).toEqual(['OPENING', 'DISCONNECTED']);
    await expect(bad.sendText('5511988887777', 'x')).rejects.toMatchObject({ code: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('uploads media and sends it by id: voice notes as audio, documents with their file name, quoted', async () => {
    const number = newNumber();
    const { s } = await connected(number);
    const to = '5511977776666';
    await s.sendMedia(to, {
      data: Buffer.from('OggS-voice'),
      mimetype: 'audio/ogg; codecs=opus',
      asVoiceNote: true,
      caption: 'dropped',
    });
    await s.sendMedia(
      to,
      { data: Buffer.from('%PDF-1.4'), mimetype: 'application/pdf', fileName: 'nota.pdf', caption: 'sua nota' },
      { quotedExternalId: 'wamid.Q' },
    );
    await s.sendMediaLink(to, { kind: 'image', link: 'https://example.com/a.jpg', caption: 'by link' });
    const [voice, doc, link] = graph.sentTo(number.phoneNumberId, to).map((m) => m.body);
    expect(voice.type).toBe('audio');
    expect(voice.audio).toEqual({ id: expect.any(String) });
    expect(doc).toMatchObject({
      type: 'document',
      document: { filename: 'nota.pdf', caption: 'sua nota' },
      context: { message_id: 'wamid.Q' },
    });
    const media = await fetch(`${graph.url}/${graph.version}/${doc.document.id}`, {
      headers: { authorization: `Bearer ${number.accessToken}` },
    });
    expect(((await media.json()) as { mime_type: string }).mime_type).toBe('application/pdf');
    expect(link).toMatchObject({ type: 'image', image: { link: 'https://example.com/a.jpg', caption: 'by link' } });
    await s.stop();
  });

  it('sends reactions and read receipts (the latest id only); cannot edit or delete; checks numbers by shape', async () => {
    const number = newNumber();
    const { s } = await connected(number);
    await s.sendReaction('5511977776666', 'wamid.C', '❤️');
    expect(graph.sentTo(number.phoneNumberId, '5511977776666').at(-1)?.body).toMatchObject({
      type: 'reaction',
      reaction: { message_id: 'wamid.C', emoji: '❤️' },
    });
    await s.markRead('5511977776666', ['wamid.1', 'wamid.2']);
    expect(graph.reads.filter((r) => r.phoneNumberId === number.phoneNumberId).map((r) => r.messageId)).toEqual([
      'wamid.2',
    ]);
    await expect(s.editMessage('5511977776666', 'wamid.X', 'x')).rejects.toMatchObject({
      code: 'ERR_CHANNEL_UNSUPPORTED',
    });
    await expect(s.deleteMessage('5511977776666', 'wamid.X', { fromMe: true })).rejects.toMatchObject({
      code: 'ERR_CHANNEL_UNSUPPORTED',
    });
    await expect(s.deleteMessage('5511977776666', 'wamid.Y', { fromMe: false })).resolves.toBeUndefined();
    expect(await s.checkNumber('+55 (11) 97777-6666')).toBe('5511977776666');
    expect(await s.checkNumber('0800123456')).toBeNull();
    expect(await s.profilePicture('5511977776666')).toBeNull();
    await expect(s.sendText('group-id-1', 'x', { isGroup: true })).rejects.toMatchObject({
      code: 'ERR_CHANNEL_UNSUPPORTED',
    });
    await s.stop();
  });

  it('downloads inbound media by id with the bearer token, and refuses bytes that do not match their sha256', async () => {
    const number = newNumber();
    const inbox = createMemoryWebhookInbox();
    const messages: TInboundMessage[] = [];
    const states: TConnectionState[] = [];
    const s = session(number, states, { inbox, messages });
    await s.start();
    await until(() => states.at(-1)?.status === 'CONNECTED');
    const good = graph.addMedia(number.phoneNumberId, Buffer.from('real bytes'), 'image/jpeg');
    const bad = graph.addMedia(number.phoneNumberId, Buffer.from('real bytes'), 'image/jpeg');
    graph.tamperMedia(bad, Buffer.from('evil bytes'));
    for (const id of [good, bad]) {
      const built = graph.messagePayload(number.phoneNumberId, '5511955554444', {
        type: 'image',
        image: { id, mime_type: 'image/jpeg' },
      });
      await inbox.add(s.connectionId, JSON.stringify(built.payload));
    }
    await s.drain();
    expect(messages).toHaveLength(2);
    const [first, second] = messages.map((m) => m.media as () => Promise<TMedia>);
    expect((await first()).data.toString()).toBe('real bytes');
    await expect(second()).rejects.toMatchObject({ code: 'ERR_WAPP_DOWNLOAD_MEDIA' });
    expect(await inbox.take(s.connectionId, 10)).toEqual([]);
    await s.stop();
  });
});
