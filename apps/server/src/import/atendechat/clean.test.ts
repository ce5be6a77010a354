import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { bool, cleanText, colour, cut, day, nameOr } from './clean';
import { createMediaCopier, MEDIA_PROBLEMS } from './media';
import { sessionRows } from './models/session';

describe('odd source values', () => {
  it('drops NUL bytes and lone surrogates, keeps pairs (emoji)', () => {
    expect(cleanText('a\u0000b')).toBe('ab');
    expect(cleanText('x\uD800y\uDC00z')).toBe('xyz');
    expect(cleanText('ok 😀')).toBe('ok 😀');
  });

  it('cuts to a length without splitting a surrogate pair', () => {
    expect(cut('ab😀', 3)).toBe('ab');
    expect(cut('abc', 5)).toBe('abc');
  });

  it('reads booleans stored as integers or text', () => {
    expect([bool(1), bool(0), bool('t'), bool('false'), bool(null, true)]).toEqual([true, false, true, false, true]);
  });

  it('replaces colours that are not hex, and empty names', () => {
    expect(colour('#abc', '#000')).toEqual({ value: '#abc', fixed: false });
    expect(colour('blue', '#000')).toEqual({ value: '#000', fixed: true });
    expect(nameOr('  ', 10, 'Queue 3')).toBe('Queue 3');
  });

  it('reads due dates as days', () => {
    expect(day(new Date('2093-03-14T03:00:00Z'))).toBe('2093-03-14');
    expect(day('2024-04-01')).toBe('2024-04-01');
    expect(day('never')).toBeNull();
  });
});

describe('the ancestor WhatsApp session', () => {
  it('becomes one row per key with the values unchanged', () => {
    const creds = { noiseKey: { private: { type: 'Buffer', data: 'AA' } }, signedIdentityKey: {}, registered: true };
    const rows = sessionRows(
      JSON.stringify({ creds, keys: { preKeys: { '7': { a: 1 } }, appStateSyncKeys: { K: { b: 2 } } } }),
    );
    expect(rows).toEqual([
      { key: 'creds', value: JSON.stringify(creds) },
      { key: 'pre-key:7', value: '{"a":1}' },
      { key: 'app-state-sync-key:K', value: '{"b":2}' },
    ]);
  });

  it('says when there is none or it cannot be read', () => {
    expect(sessionRows(null)).toBeNull();
    expect(sessionRows('{nope')).toBe('bad');
    expect(sessionRows(JSON.stringify({ creds: {} }))).toBe('bad');
  });
});

describe('media paths', () => {
  const root = mkdtempSync(join(tmpdir(), 'import-media-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const publicDir = join(root, 'public');
  mkdirSync(join(publicDir, 'quickMessage'), { recursive: true });
  writeFileSync(join(root, 'secret.txt'), 'secret');
  writeFileSync(join(publicDir, 'quickMessage', 'a.txt'), 'hello');
  const config = loadConfig({ DATA_DIR: join(root, 'data'), ZELO_SECRET_KEY: '11'.repeat(32) });
  const copy = createMediaCopier(config, publicDir, true);

  it('never follows a link out of the media folder', async () => {
    symlinkSync(join(root, 'secret.txt'), join(publicDir, 'link.txt'));
    expect(await copy('link.txt')).toEqual({ problem: MEDIA_PROBLEMS.outside });
  });

  it('never leaves the media folder', async () => {
    expect(await copy('../secret.txt')).toEqual({ problem: MEDIA_PROBLEMS.outside });
    expect(await copy('/etc/passwd')).toEqual({ problem: MEDIA_PROBLEMS.outside });
    expect(await copy('x/../../secret.txt')).toEqual({ problem: MEDIA_PROBLEMS.outside });
  });

  it('finds a file in the sub-folder its upload used, and reports a missing one', async () => {
    expect(await copy('a.txt', ['quickMessage'])).toMatchObject({ name: 'a.txt', mime: 'text/plain' });
    expect(await copy('gone.png')).toEqual({ problem: MEDIA_PROBLEMS.missing });
  });
});
