import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import {
  isMaskedSecret,
  isSealedSecret,
  keepOrSeal,
  maskSecret,
  maskStoredSecret,
  openSecret,
  sealSecret,
  useSecretKey,
} from './secrets';

describe('tenant secrets', () => {
  const key = randomBytes(32);
  beforeEach(() => useSecretKey(key));

  it('seals with a versioned prefix, never the plain text, and opens back', () => {
    const sealed = sealSecret('sk-proj-abcdefghijklmnop1234');
    expect(sealed.startsWith('enc:v1:')).toBe(true);
    expect(sealed).not.toContain('abcdefghijklmnop');
    expect(isSealedSecret(sealed)).toBe(true);
    expect(openSecret(sealed)).toBe('sk-proj-abcdefghijklmnop1234');
    // a fresh IV each time
    expect(sealSecret('same')).not.toBe(sealSecret('same'));
  });

  it('reads a legacy plain value as itself and an empty one as empty', () => {
    expect(openSecret('sk-legacy-plain')).toBe('sk-legacy-plain');
    expect(openSecret(null)).toBe('');
    expect(sealSecret('')).toBe('');
  });

  it('refuses a tampered value and another key', () => {
    const sealed = sealSecret('secret-value');
    const raw = Buffer.from(sealed.slice(7), 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] as number) ^ 1;
    expect(() => openSecret(`enc:v1:${raw.toString('base64url')}`)).toThrow();
    useSecretKey(randomBytes(32));
    expect(() => openSecret(sealed)).toThrow();
    expect(maskStoredSecret(sealed)).toBe('••••••');
  });

  it('masks showing at most the last 4 characters', () => {
    expect(maskSecret('sk-abcdefghijkl1234')).toBe('sk-••••••1234');
    expect(maskSecret('abcdefghijklmnop')).toBe('••••••mnop');
    expect(maskSecret('short')).toBe('••••••');
    expect(maskSecret('')).toBe('');
    expect(isMaskedSecret('sk-••••••1234')).toBe(true);
    expect(isMaskedSecret('sk-real')).toBe(false);
    expect(maskStoredSecret(sealSecret('sk-abcdefghijkl9876'))).toBe('sk-••••••9876');
  });

  it('keeps on a mask or nothing, clears on empty, seals anything else', () => {
    const stored = sealSecret('sk-old-key-000000001');
    expect(keepOrSeal('sk-••••••0001', stored)).toBe(stored);
    expect(keepOrSeal(undefined, stored)).toBe(stored);
    expect(keepOrSeal('', stored)).toBe('');
    const changed = keepOrSeal('sk-new-key', stored);
    expect(openSecret(changed)).toBe('sk-new-key');
    // a legacy plain value kept is sealed on the way
    const kept = keepOrSeal(undefined, 'plain-legacy');
    expect(isSealedSecret(kept)).toBe(true);
    expect(openSecret(kept)).toBe('plain-legacy');
  });
});

describe('the secrets key in the configuration', () => {
  it('is generated once into DATA_DIR when absent, and kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zelo-key-'));
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.secretKey.length).toBe(32);
    expect(second.secretKey.equals(first.secretKey)).toBe(true);
    expect(readFileSync(join(dir, 'secret.key'), 'utf8')).toBe(first.secretKey.toString('hex'));
  });

  it('takes ZELO_SECRET_KEY as hex or base64 and refuses anything else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zelo-key-'));
    const bytes = randomBytes(32);
    expect(loadConfig({ DATA_DIR: dir, ZELO_SECRET_KEY: bytes.toString('hex') }).secretKey.equals(bytes)).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, ZELO_SECRET_KEY: bytes.toString('base64') }).secretKey.equals(bytes)).toBe(true);
    expect(() => loadConfig({ DATA_DIR: dir, ZELO_SECRET_KEY: 'too-short' })).toThrow(/ZELO_SECRET_KEY/);
  });

  it('splits OUTBOUND_ALLOW_HOSTS', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zelo-key-'));
    expect(
      loadConfig({ DATA_DIR: dir, OUTBOUND_ALLOW_HOSTS: ' 127.0.0.1, ollama.local ,10.0.0.0/8' }).outboundAllowHosts,
    ).toEqual(['127.0.0.1', 'ollama.local', '10.0.0.0/8']);
  });
});
