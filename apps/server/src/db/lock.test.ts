import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDirLock } from './lock';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'zelo-lock-'));
  dirs.push(dir);

  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('data directory lock', () => {
  it('refuses a directory held by a live process and frees it on release', async () => {
    const dir = tempDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    writeFileSync(join(dir, 'zelo.lock'), String(holder.pid));
    try {
      expect(() => acquireDirLock(dir)).toThrow(/in use by process/);
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock left by a dead process', async () => {
    const dir = tempDir();
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.once('exit', r));
    writeFileSync(join(dir, 'zelo.lock'), String(dead.pid));
    const release = acquireDirLock(dir);
    expect(existsSync(join(dir, 'zelo.lock'))).toBe(true);
    release();
    expect(existsSync(join(dir, 'zelo.lock'))).toBe(false);
  });
});
