import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A benchmark's figures are only worth something on a quiet machine (issue 23 item 7): `npm run bench` holds a
 * lock so two benchmarks never run at once, then waits until the 1-minute load average is below `threshold`
 * (at most `maxWaitSeconds`; then it runs anyway and its report says "loaded"). The lock is a file holding the
 * holder's pid; a holder that died leaves a lock the next run takes over.
 */

export const QUIET_LOAD = 1.5;
const LOCK = join(tmpdir(), 'zelo-bench.lock');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** waits for the lock (polling every 2 s, saying once who holds it); the release runs on exit too */
export const takeBenchLock = async (say: (line: string) => void = console.log) => {
  let told = false;
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(LOCK, 'utf8').trim() || 0);
      if (!holder || !alive(holder)) {
        rmSync(LOCK, { force: true });
        continue;
      }
      if (!told) say(`another benchmark (pid ${holder}) is running: waiting for it to finish`);
      told = true;
      await sleep(2000);
    }
  }
  const release = () => {
    try {
      if (readFileSync(LOCK, 'utf8').trim() === String(process.pid)) rmSync(LOCK, { force: true });
    } catch {
      // already gone
    }
  };
  process.once('exit', release);

  return release;
};

export type TQuiet = { quiet: boolean; waitedSeconds: number; load1: number; threshold: number };

/** waits until the 1-minute load average is under `threshold`, at most `maxWaitSeconds` */
export const waitForQuiet = async (
  maxWaitSeconds: number,
  threshold = QUIET_LOAD,
  say: (line: string) => void = console.log,
): Promise<TQuiet> => {
  const started = Date.now();
  let told = false;
  for (;;) {
    const load1 = loadavg()[0]!;
    const waitedSeconds = Math.round((Date.now() - started) / 1000);
    if (load1 < threshold) return { quiet: true, waitedSeconds, load1, threshold };
    if (waitedSeconds >= maxWaitSeconds) return { quiet: false, waitedSeconds, load1, threshold };
    if (!told) say(`1-minute load ${load1.toFixed(2)} ≥ ${threshold}: waiting up to ${maxWaitSeconds} s for quiet`);
    told = true;
    await sleep(5000);
  }
};

/** the report's line on it */
export const quietLine = (q: TQuiet) =>
  q.quiet
    ? `quiet: yes (1-minute load ${q.load1.toFixed(2)} < ${q.threshold}${q.waitedSeconds ? ` after waiting ${q.waitedSeconds} s` : ''})`
    : `**LOADED**: 1-minute load ${q.load1.toFixed(2)} ≥ ${q.threshold} after waiting ${q.waitedSeconds} s — these figures are not comparable with quiet ones`;
