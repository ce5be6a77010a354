import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TConfig } from '../../config';
import { mediaDir, removeMediaFile, storeMediaFile, storeMediaFileLike } from './media';

/** A campaign's media sent to many recipients: each message gets a file of its own that shares the bytes. */

let config: TConfig;
beforeAll(async () => {
  config = { dataDir: await mkdtemp(join(tmpdir(), 'zelo-media-link-')) } as TConfig;
});
afterAll(() => rm(config.dataDir, { recursive: true, force: true }));

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(256, 7)]);
const at = (name: string) => join(mediaDir(config), name);

describe('storeMediaFileLike', () => {
  it('links the stored source: a new name, the same bytes, no second copy; removing one keeps the other', async () => {
    const source = await storeMediaFile(config, PNG, 'png');
    const first = await storeMediaFileLike(config, PNG, 'png', source);
    const second = await storeMediaFileLike(config, PNG, 'png', source);
    expect(new Set([source, first, second]).size).toBe(3);
    expect(first).toMatch(/^[0-9a-f]{32}\.png$/);
    const [s, a, b] = await Promise.all([stat(at(source)), stat(at(first)), stat(at(second))]);
    expect(a.ino).toBe(s.ino);
    expect(b.ino).toBe(s.ino);
    expect(s.nlink).toBe(3);
    // the campaign's media replaced or deleted: the messages keep theirs
    await removeMediaFile(config, source);
    expect((await readFile(at(first))).equals(PNG)).toBe(true);
    await removeMediaFile(config, first);
    expect((await readFile(at(second))).equals(PNG)).toBe(true);
    expect((await stat(at(second))).nlink).toBe(1);
  });

  it('writes a copy when the bytes sent differ from the source (a converted file) or the source is gone', async () => {
    const source = await storeMediaFile(config, PNG, 'png');
    const converted = Buffer.concat([PNG, Buffer.from('x')]);
    const copy = await storeMediaFileLike(config, converted, 'png', source);
    expect((await stat(at(copy))).ino).not.toBe((await stat(at(source))).ino);
    expect((await readFile(at(copy))).equals(converted)).toBe(true);
    const orphan = await storeMediaFileLike(config, PNG, 'png', 'missing-file.png');
    expect((await readFile(at(orphan))).equals(PNG)).toBe(true);
    expect((await stat(at(orphan))).nlink).toBe(1);
  });

  it('never follows a source outside the media folder', async () => {
    const outside = join(config.dataDir, 'secret.png');
    await writeFile(outside, PNG);
    const name = await storeMediaFileLike(config, PNG, 'png', '../secret.png');
    // basename only: "secret.png" is not in the media folder, so the bytes are written, not linked
    expect((await stat(at(name))).ino).not.toBe((await stat(outside)).ino);
  });

  it('writes the bytes when no source is named', async () => {
    const name = await storeMediaFileLike(config, PNG, 'png', undefined);
    expect((await readFile(at(name))).equals(PNG)).toBe(true);
  });
});
