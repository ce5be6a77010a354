import { describe, expect, it } from 'vitest';
import { createMemoryAuthStateStore } from '../auth-state.repo';
import { channelConformance, type TFarSide } from '../conformance';
import type { TChannelEvents, TChannelSession } from '../types';
import { createSandboxDriver, isSandboxSession, sandboxAccount } from './sandbox.driver';

const simulator = (session: TChannelSession) => {
  if (!isSandboxSession(session)) throw new Error('not a sandbox session');

  return session.simulator;
};

const far: TFarSide = {
  customer: '5511988887777',
  notOnWhatsApp: '000119999999',
  pair: async (session) => {
    const sim = simulator(session);
    const end = Date.now() + 2000;
    while (sim.status() !== 'qrcode') {
      if (Date.now() > end) throw new Error('no QR code');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await sim.scan({ qrcode: sim.qrcode() });
  },
  customerSends: (session, message) => simulator(session).inbound(message),
  received: async (session, customer) => simulator(session).outbox(customer, 500),
  customerReads: async (session, customer, ids) => {
    await simulator(session).read(customer, ids);
  },
};

describe('sandbox driver conformance', () => {
  const store = createMemoryAuthStateStore();
  const factory = createSandboxDriver({
    store,
    timings: { openingMs: 5, qrIntervalMs: 2000, maxQrs: 3, ackStepMs: 5 },
  });
  channelConformance({
    create: (events: TChannelEvents) => factory({ id: 7, companyId: 1, provider: 'sandbox' }, events),
    far,
  });
});

describe('sandbox driver specifics', () => {
  const states = (list: string[]): TChannelEvents => ({
    onState: async (s) => {
      list.push(`${s.status}:${s.retries}`);
    },
    onMessage: async () => undefined,
    onMessageUpdate: async () => undefined,
    onCall: async () => undefined,
  });

  it('regenerates the QR and times out after the configured number of unscanned codes', async () => {
    const seen: string[] = [];
    const factory = createSandboxDriver({
      store: createMemoryAuthStateStore(),
      timings: { openingMs: 1, qrIntervalMs: 30, maxQrs: 3, ackStepMs: 1 },
    });
    const session = factory({ id: 1, companyId: 1, provider: 'sandbox' }, states(seen));
    await session.start();
    const end = Date.now() + 2000;
    while (!seen.at(-1)?.startsWith('TIMEOUT') && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual(['OPENING:0', 'qrcode:0', 'qrcode:1', 'qrcode:2', 'TIMEOUT:3']);
    expect(simulator(session).qrcode()).toBe('');
    await expect(simulator(session).scan()).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
    await session.stop();
  });

  it('refuses a stale QR code and keeps the customer outbox bounded', async () => {
    const factory = createSandboxDriver({
      store: createMemoryAuthStateStore(),
      timings: { openingMs: 1, qrIntervalMs: 5000, maxQrs: 3, ackStepMs: 1 },
    });
    const session = factory({ id: 2, companyId: 1, provider: 'sandbox' }, states([]));
    await session.start();
    await far.pair(session);
    expect(simulator(session).status()).toBe('CONNECTED');
    for (let i = 0; i < 230; i++) await session.sendText('5511977776666', `m${i}`);
    const box = simulator(session).outbox('5511977776666', 500);
    expect(box.length).toBe(200);
    expect(box.at(-1)?.body).toBe('m229');
    await session.stop();
  });

  it('treats 8 to 15 digits as accounts, except numbers starting with 000', () => {
    expect(sandboxAccount('+55 (11) 98888-7777')).toBe('5511988887777');
    expect(sandboxAccount('1234567')).toBeNull();
    expect(sandboxAccount('1234567890123456')).toBeNull();
    expect(sandboxAccount('00012345678')).toBeNull();
  });
});
