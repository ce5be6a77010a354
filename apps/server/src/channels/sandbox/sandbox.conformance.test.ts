import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/harness';
import type { TDatabase } from '../../db/client';
import { createMemoryAuthStateStore } from '../auth-state.repo';
import { channelConformance, type TFarSide } from '../conformance';
import type { TChannelEvents, TChannelSession, TConnectionRef, TDriverFactory } from '../types';
import { createSandboxOutboxStore, type TSandboxOutboxLimits } from './outbox.repo';
import { createSandboxDriver, isSandboxSession, sandboxAccount, type TSandboxTimings } from './sandbox.driver';

/** the far side is stored in a real database: a company and its connections for the driver's sessions */
let database: TDatabase;
let companyId = 0;
beforeAll(async () => {
  database = await openTestDatabase();
  const { rows } = await database.executeSql('insert into companies (name) values ($1) returning id', ['Sandbox']);
  companyId = (rows[0] as { id: number }).id;
});
afterAll(() => database?.close());

const newConnection = async (): Promise<TConnectionRef> => {
  const { rows } = await database.executeSql('insert into whatsapps (company_id, name) values ($1, $2) returning id', [
    companyId,
    `Sandbox ${Math.random()}`,
  ]);

  return { id: (rows[0] as { id: number }).id, companyId, provider: 'sandbox' };
};

const driver = (timings: Partial<TSandboxTimings>, limits?: TSandboxOutboxLimits) =>
  createSandboxDriver({
    store: createMemoryAuthStateStore(),
    outbox: createSandboxOutboxStore(database.db, limits),
    timings,
  });

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
  // one driver and one connection for every session of the suite: they share what is stored
  let shared: { factory: TDriverFactory; connection: TConnectionRef } | undefined;
  beforeAll(async () => {
    shared = {
      factory: driver({ openingMs: 5, qrIntervalMs: 2000, maxQrs: 3, ackStepMs: 5 }),
      connection: await newConnection(),
    };
  });
  channelConformance({
    create: (events: TChannelEvents) => shared!.factory(shared!.connection, events),
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
    const factory = driver({ openingMs: 1, qrIntervalMs: 30, maxQrs: 3, ackStepMs: 1 });
    const session = factory(await newConnection(), states(seen));
    await session.start();
    const end = Date.now() + 2000;
    while (!seen.at(-1)?.startsWith('TIMEOUT') && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual(['OPENING:0', 'qrcode:0', 'qrcode:1', 'qrcode:2', 'TIMEOUT:3']);
    expect(simulator(session).qrcode()).toBe('');
    await expect(simulator(session).scan()).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
    await session.stop();
  });

  it('refuses a stale QR code and keeps the customer outbox bounded', async () => {
    const factory = driver({ openingMs: 1, qrIntervalMs: 5000, maxQrs: 3, ackStepMs: 1 });
    const session = factory(await newConnection(), states([]));
    await session.start();
    await far.pair(session);
    expect(simulator(session).status()).toBe('CONNECTED');
    for (let i = 0; i < 230; i++) await session.sendText('5511977776666', `m${i}`);
    const box = await simulator(session).outbox('5511977776666', 500);
    expect(box.length).toBe(200);
    expect(box[0]?.body).toBe('m30');
    expect(box.at(-1)?.body).toBe('m229');
    await session.stop();
  });

  it('keeps the customers written to last, each with their newest messages and read marks', async () => {
    const factory = driver(
      { openingMs: 1, qrIntervalMs: 5000, maxQrs: 3, ackStepMs: 1 },
      { customers: 2, perCustomer: 3 },
    );
    const connection = await newConnection();
    const session = factory(connection, states([]));
    await session.start();
    await far.pair(session);
    const [ana, bia, caio] = ['5511911110001', '5511911110002', '5511911110003'];
    for (const body of ['a1', 'a2', 'a3', 'a4']) await session.sendText(ana, body);
    await session.sendText(bia, 'b1');
    await session.markRead(ana, ['IN1', 'IN2', 'IN3', 'IN4', 'IN2']);
    const bodies = async (to: string) => (await simulator(session).outbox(to, 500)).map((m) => m.body);
    expect(await bodies(ana)).toEqual(['a2', 'a3', 'a4']);
    expect(await simulator(session).readByBusiness(ana)).toEqual(['IN2', 'IN3', 'IN4']);
    // Ana was written to after Bia: a third customer pushes Bia out
    await session.sendText(ana, 'a5');
    await session.sendText(caio, 'c1');
    expect(await bodies(bia)).toEqual([]);
    expect(await bodies(ana)).toEqual(['a3', 'a4', 'a5']);
    expect((await simulator(session).outbox(undefined, 500)).map((m) => m.body)).toEqual(['a3', 'a4', 'a5', 'c1']);
    // another connection of the same company has an outbox of its own
    const other = factory(await newConnection(), states([]));
    await other.start();
    await far.pair(other);
    expect(await simulator(other).outbox(ana, 500)).toEqual([]);
    await other.stop();
    await session.stop();
  });

  it('treats 8 to 15 digits as accounts, except numbers starting with 000', () => {
    expect(sandboxAccount('+55 (11) 98888-7777')).toBe('5511988887777');
    expect(sandboxAccount('1234567')).toBeNull();
    expect(sandboxAccount('1234567890123456')).toBeNull();
    expect(sandboxAccount('00012345678')).toBeNull();
  });
});
