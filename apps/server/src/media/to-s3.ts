/**
 * Moves a local media folder into the configured bucket (`npm run media:to-s3`, media/to-s3-cli.ts), resumable
 * and verifiable. Each file is hashed (SHA-256) from the disk, then skipped when the bucket already holds an
 * object of that name with the same size and hash (a rerun after an interruption moves only what is left), else
 * streamed up with its hash as metadata. Verification then checks every file against the bucket: `head` compares
 * each object's size and recorded hash (cheap), `full` downloads each object and hashes its bytes. The local folder
 * is left as it was: remove it once the servers run with MEDIA_STORE=s3.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createLocalStore } from './local-store';
import { isMediaName, type TMediaStore } from './store';

export type TMoveReport = {
  files: number;
  bytes: number;
  uploaded: number;
  skipped: number;
  verified: number;
  /** names not moved or not matching after the move, with the reason */
  problems: { name: string; reason: string }[];
};

const hashStream = async (stream: Readable) => {
  const hash = createHash('sha256');
  await pipeline(stream, hash);

  return hash.digest('hex');
};

export const hashFile = (file: string) => hashStream(createReadStream(file));

/** runs `work` over `items` with at most `limit` at once */
const pool = async <T>(items: AsyncIterable<T>, limit: number, work: (item: T) => Promise<void>) => {
  const running = new Set<Promise<void>>();
  for await (const item of items) {
    const task = work(item).finally(() => running.delete(task));
    running.add(task);
    if (running.size >= limit) await Promise.race(running);
  }
  await Promise.all(running);
};

export const moveMediaToS3 = async (opts: {
  from: string;
  target: TMediaStore;
  verify: 'head' | 'full';
  concurrency?: number;
  onProgress?: (report: TMoveReport, phase: 'move' | 'verify') => void;
}): Promise<TMoveReport> => {
  const report: TMoveReport = { files: 0, bytes: 0, uploaded: 0, skipped: 0, verified: 0, problems: [] };
  const source = createLocalStore(opts.from);
  const hashes = new Map<string, { size: number; sha256: string }>();
  await pool(source.list(), opts.concurrency ?? 4, async ({ name, size }) => {
    report.files += 1;
    report.bytes += size;
    if (!isMediaName(name)) {
      report.problems.push({ name, reason: 'not a media file name (left in the folder)' });
      return;
    }
    try {
      const sha256 = await hashFile(join(opts.from, name));
      hashes.set(name, { size, sha256 });
      const there = await opts.target.stat(name);
      if (there && there.size === size && there.sha256 === sha256) report.skipped += 1;
      else {
        await opts.target.put(name, createReadStream(join(opts.from, name)), { size, sha256 });
        report.uploaded += 1;
      }
    } catch (err) {
      report.problems.push({ name, reason: (err as Error).message });
    }
    opts.onProgress?.(report, 'move');
  });
  const failed = new Set(report.problems.map((p) => p.name));
  const moved = (async function* () {
    for (const [name, expected] of hashes) if (!failed.has(name)) yield { name, ...expected };
  })();
  await pool(moved, opts.concurrency ?? 4, async ({ name, size, sha256 }) => {
    try {
      if (opts.verify === 'head') {
        const there = await opts.target.stat(name);
        if (!there) throw new Error('missing in the bucket');
        if (there.size !== size || there.sha256 !== sha256) throw new Error('size or recorded hash differs');
      } else {
        const file = await opts.target.open(name);
        if (!file || file === 'unsatisfiable') throw new Error('missing in the bucket');
        if ((await hashStream(file.body)) !== sha256) throw new Error('the bytes in the bucket differ');
      }
      report.verified += 1;
    } catch (err) {
      report.problems.push({ name, reason: (err as Error).message });
    }
    opts.onProgress?.(report, 'verify');
  });

  return report;
};
