import { describe, expect, it } from 'vitest';
import { createMemoryAuthStateStore, type TAuthStateStore } from '../auth-state.repo';
import { CorruptAuthState, loadDbAuthState } from './auth-state';
import { loadBaileysKit } from './baileys.loader';

/** Baileys' credentials and signal keys as rows of a TAuthStateStore (the database in production) */

describe('Baileys auth state over the auth-state store', () => {
  it('credentials with Buffers survive a round trip; keys are set, read and removed by type and id', async () => {
    const kit = await loadBaileysKit();
    const store = createMemoryAuthStateStore();
    const first = await loadDbAuthState(store, 3, kit);
    const noise = first.state.creds.noiseKey as { private: Buffer };
    expect(Buffer.isBuffer(noise.private)).toBe(true);
    await first.saveCreds();
    await first.state.keys.set({
      'pre-key': { '1': { public: Buffer.from([1]), private: Buffer.from([2]) }, '2': { public: Buffer.from([3]) } },
      session: { '5511988887777.0': Buffer.from('sessão') },
    });
    await first.state.keys.set({ 'pre-key': { '2': null } });

    const second = await loadDbAuthState(store, 3, kit);
    expect((second.state.creds.noiseKey as { private: Buffer }).private.equals(noise.private)).toBe(true);
    const preKeys = await second.state.keys.get('pre-key', ['1', '2']);
    expect(Object.keys(preKeys)).toEqual(['1']);
    expect(preKeys['1']).toEqual({ public: Buffer.from([1]), private: Buffer.from([2]) });
    expect((await second.state.keys.get('session', ['5511988887777.0']))['5511988887777.0']).toEqual(
      Buffer.from('sessão'),
    );
    // another connection's rows are apart
    expect(await (await loadDbAuthState(store, 4, kit)).state.keys.get('pre-key', ['1'])).toEqual({});
    await second.rememberLid('98765432109876', '5511955554444');
    expect(await second.lidToNumber('98765432109876')).toBe('5511955554444');
    await second.clear();
    expect(await store.get(3, 'creds')).toBeUndefined();
    expect(await second.lidToNumber('98765432109876')).toBeUndefined();
  });

  it('credentials without their keys, or not JSON, are corrupt', async () => {
    const kit = await loadBaileysKit();
    const store = createMemoryAuthStateStore();
    await store.set(5, 'creds', '{"registered":true}');
    await expect(loadDbAuthState(store, 5, kit)).rejects.toBeInstanceOf(CorruptAuthState);
    await store.set(5, 'creds', '{"noiseKey":');
    await expect(loadDbAuthState(store, 5, kit)).rejects.toBeInstanceOf(CorruptAuthState);
  });

  it('credential saves land in order: a slow earlier write never overwrites a later one', async () => {
    const kit = await loadBaileysKit();
    const memory = createMemoryAuthStateStore();
    let writes = 0;
    const slowFirst: TAuthStateStore = {
      ...memory,
      set: async (id, key, value) => {
        writes += 1;
        if (writes === 1) await new Promise((r) => setTimeout(r, 50));
        await memory.set(id, key, value);
      },
    };
    const auth = await loadDbAuthState(slowFirst, 6, kit);
    auth.state.creds.registered = false;
    const early = auth.saveCreds();
    auth.state.creds.registered = true;
    const late = auth.saveCreds();
    await Promise.all([early, late]);
    expect(JSON.parse((await memory.get(6, 'creds')) ?? '{}').registered).toBe(true);
  });
});
