import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import {
  DEFAULT_PASSWORD_ROUNDS,
  DUMMY_HASH,
  dummyHash,
  hashPassword,
  usePasswordRounds,
  verifyPassword,
} from './passwords';

/** the cost written in a bcrypt hash: `$2b$NN$…` */
const costOf = (hash: string) => Number(hash.split('$')[2]);

describe('password hashing cost (PASSWORD_HASH_ROUNDS)', () => {
  afterEach(() => usePasswordRounds(DEFAULT_PASSWORD_ROUNDS));

  it('is 10 unless set, and only 4 to 15 is accepted', () => {
    expect(loadConfig({}).passwordHashRounds).toBe(10);
    expect(loadConfig({ PASSWORD_HASH_ROUNDS: '12' }).passwordHashRounds).toBe(12);
    expect(() => loadConfig({ PASSWORD_HASH_ROUNDS: '3' })).toThrow(/PASSWORD_HASH_ROUNDS/);
    expect(() => loadConfig({ PASSWORD_HASH_ROUNDS: '16' })).toThrow(/PASSWORD_HASH_ROUNDS/);
  });

  it('hashes at the cost in use; a stored hash of another cost still verifies', async () => {
    const stored = await hashPassword('Senha-forte-1');
    expect(costOf(stored)).toBe(10);
    usePasswordRounds(4);
    const cheap = await hashPassword('Senha-forte-1');
    expect(costOf(cheap)).toBe(4);
    expect(await verifyPassword('Senha-forte-1', stored)).toBe(true);
    expect(await verifyPassword('Senha-forte-1', cheap)).toBe(true);
    expect(await verifyPassword('senha-forte-1', cheap)).toBe(false);
  });

  it('compares an unknown e-mail against a dummy hash of the same cost, which no password matches', async () => {
    expect(await dummyHash()).toBe(DUMMY_HASH);
    usePasswordRounds(4);
    const dummy = await dummyHash();
    expect(costOf(dummy)).toBe(4);
    expect(await dummyHash()).toBe(dummy);
    expect(await verifyPassword('', dummy)).toBe(false);
  });
});
