import { randomBytes } from 'node:crypto';
import { createPgDatabase, fmt, median, removeDir, startServer, tempDir } from './lib';

export type TColdStart = {
  database: 'PGlite' | 'PostgreSQL';
  firstStartMs: number;
  /** spawn to ready line, as measured by the parent */
  wall: number[];
  /** the server's own readyMs */
  self: number[];
  /** CPU time used up to ready */
  cpu: number[];
  targetMs: number;
};

const measure = async (
  database: TColdStart['database'],
  runs: number,
  targetMs: number,
  opts: { dataDir: string; databaseUrl?: string },
): Promise<TColdStart> => {
  // first start creates and migrates the database and seeds the super user; not measured
  const first = await startServer(opts);
  await first.stop();
  const wall: number[] = [];
  const self: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const server = await startServer(opts);
    wall.push(server.wallMs);
    self.push(server.readyMs);
    cpu.push(server.cpuMs);
    await server.stop();
    console.log(
      `  ${database} start ${i + 1}/${runs}: ${fmt(server.wallMs, 0)} ms (server says ${server.readyMs} ms, CPU ${server.cpuMs} ms)`,
    );
  }

  return { database, firstStartMs: first.wallMs, wall, self, cpu, targetMs };
};

export const coldStartPglite = async (runs: number) => {
  const dataDir = tempDir('cold-pglite');
  try {
    return await measure('PGlite', runs, 3000, { dataDir });
  } finally {
    removeDir(dataDir);
  }
};

export const coldStartPostgres = async (runs: number, baseUrl: string) => {
  const dataDir = tempDir('cold-pg');
  const db = createPgDatabase(baseUrl, `zelo_bench_${randomBytes(4).toString('hex')}`);
  try {
    return await measure('PostgreSQL', runs, 1000, { dataDir, databaseUrl: db.url });
  } finally {
    db.drop();
    removeDir(dataDir);
  }
};

export const coldStartTable = (results: TColdStart[]) => {
  const rows = results.map((r) => {
    const sorted = [...r.wall].sort((a, b) => a - b);
    const med = median(r.wall);
    const verdict = med <= r.targetMs ? 'met' : `**missed** (${fmt(med / r.targetMs, 1)}×)`;
    return (
      `| ${r.database} | ${r.wall.length} | ${fmt(sorted[0], 0)} | ${fmt(med, 0)} | ${fmt(sorted.at(-1)!, 0)} | ` +
      `${fmt(median(r.self), 0)} | ${fmt(median(r.cpu), 0)} | ${fmt(r.firstStartMs, 0)} | ≤ ${r.targetMs} | ${verdict} |`
    );
  });

  return [
    '| database | runs | min ms | median ms | max ms | median readyMs (server) | median CPU ms to ready | first start ms (migrate + seed) | target ms | target |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
};
