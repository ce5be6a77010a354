import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = resolve(import.meta.dirname, '../src/main.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'zelo-single-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (port: number) => {
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', JOBS: 'off', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  proc.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });

  return { proc, output: () => output };
};

describe('embedded database', () => {
  it('a second process refuses the data directory the first one holds', async () => {
    const first = run(0);
    await new Promise<void>((ok, fail) => {
      const timer = setInterval(() => {
        if (first.output().includes('"readyMs"')) {
          clearInterval(timer);
          ok();
        }
      }, 100);
      first.proc.once('exit', () => fail(new Error(first.output())));
    });
    expect(first.output()).toMatch(/First super user created/);

    const second = run(0);
    const code = await new Promise<number | null>((ok) => second.proc.once('exit', ok));
    expect(code).not.toBe(0);
    expect(second.output()).toMatch(/in use by process/);

    await new Promise<void>((ok) => {
      first.proc.once('exit', () => ok());
      first.proc.kill('SIGTERM');
    });
    // released on a clean stop: the directory opens again, with its data
    const third = run(0);
    await new Promise<void>((ok, fail) => {
      const timer = setInterval(() => {
        if (third.output().includes('"readyMs"')) {
          clearInterval(timer);
          ok();
        }
      }, 100);
      third.proc.once('exit', () => fail(new Error(third.output())));
    });
    expect(third.output()).not.toMatch(/First super user created/);
    third.proc.kill('SIGTERM');
    await new Promise((ok) => third.proc.once('exit', ok));
  }, 90_000);
});
