import { DEFAULT_GENERATE } from './generate';
import { INBOX_DEFAULTS, type TInboxOptions, withGeneratedInbox } from './inbox';
import { closedLoopGets, fmt, json, removeDir, startServer, tempDir } from './lib';

/**
 * The contacts page, contact searches and the tags page with their ticket counts on the generated inbox
 * (PostgreSQL, 100,000 tickets, 60,000 contacts, half of them with an e-mail; 12 tags a company on three tickets
 * in four), read by 20 closed-loop clients as the first company's admin, with kept answers off
 * (`LIST_ANSWERS=off`: nothing of these is kept anyway, so every request reads the database). Searches are by a
 * part of a name, a number or an e-mail, accents and case ignored, a common one (a surname in 1 contact of 9), a
 * rare one, and the short ones (1–2 characters) a trigram index cannot serve. Target: p95 ≤ 15 ms each.
 */

export const CONTACTS_DEFAULTS = { p95TargetMs: 15 };

export type TContactsResult = {
  what: string;
  path: string;
  clients: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  serverCpuMs: number;
  /** what page 1 answered: rows and count */
  rows: number;
  count: number;
  p95TargetMs: number;
};

/** the rows measured: what, the path, and (searches) which kind of match it is */
const ROWS: [what: string, path: string][] = [
  ['contacts page 1', '/api/contacts?pageNumber=1'],
  ['search "oliveira" (a surname, 1 contact in 9)', '/api/contacts?pageNumber=1&searchParam=oliveira'],
  ['search "VEIRA" (inside a surname, case)', '/api/contacts?pageNumber=1&searchParam=VEIRA'],
  ['search "joao" (finds "João", accents)', '/api/contacts?pageNumber=1&searchParam=joao'],
  ['search "hotmail" (e-mail part, 1 contact in 8)', '/api/contacts?pageNumber=1&searchParam=hotmail'],
  ['search "ana.silva1800" (e-mail part, rare)', '/api/contacts?pageNumber=1&searchParam=ana.silva1800'],
  ['search "0012345" (number part, rare)', '/api/contacts?pageNumber=1&searchParam=0012345'],
  ['search "fabio almeida 2965" (name part, rare)', '/api/contacts?pageNumber=1&searchParam=fabio%20almeida%202965'],
  ['search "an" (2 characters)', '/api/contacts?pageNumber=1&searchParam=an'],
  ['search "z" (1 character)', '/api/contacts?pageNumber=1&searchParam=z'],
  ['search "xy" (2 characters, no contact has them)', '/api/contacts?pageNumber=1&searchParam=xy'],
  ['tags page 1 with ticket counts', '/api/tags?pageNumber=1'],
];

export const contactsPostgres = async (
  opts: { concurrency: number; seconds: number; warmupSeconds: number; tickets: number },
  baseUrl: string,
): Promise<TContactsResult[]> => {
  const inbox: TInboxOptions = { ...INBOX_DEFAULTS, tickets: opts.tickets };

  return withGeneratedInbox(inbox, baseUrl, async (databaseUrl, generated) => {
    const dataDir = tempDir('contacts');
    const results: TContactsResult[] = [];
    const server = await startServer({
      dataDir,
      databaseUrl,
      env: { RATE_LIMITS: 'off', JOBS: 'off', LIST_ANSWERS: 'off' },
      timeoutMs: 120_000,
    });
    try {
      const company = generated.companies[0];
      const token = (
        await json(server.url, {
          method: 'POST',
          path: '/api/auth/login',
          body: { email: company.admin.email, password: DEFAULT_GENERATE.password },
        })
      ).token as string;
      for (const [what, path] of ROWS) {
        const first = await json(server.url, { method: 'GET', path, token });
        const rows = ((first.contacts ?? first.tags) as unknown[]).length;
        console.log(`  ${what}: ${rows} rows of ${first.count}, ${opts.concurrency} clients, ${opts.seconds} s`);
        const r = await closedLoopGets(
          server,
          { clients: opts.concurrency, seconds: opts.seconds, warmupSeconds: opts.warmupSeconds },
          () => ({ path, token }),
        );
        results.push({
          what,
          path,
          clients: opts.concurrency,
          ...r,
          rows,
          count: first.count as number,
          p95TargetMs: CONTACTS_DEFAULTS.p95TargetMs,
        });
      }
    } finally {
      await server.stop();
      removeDir(dataDir);
    }

    return results;
  });
};

export const contactsTable = (results: TContactsResult[]) =>
  [
    '| request (company 1: 30,000 contacts) | rows / count | clients | requests | errors | req/s | p50 ms | p95 ms | p99 ms | max ms | p95 target ms | server CPU ms/request |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    ...results.map(
      (r) =>
        `| ${r.what} | ${r.rows} / ${r.count} | ${r.clients} | ${r.requests} | ${r.errors} | ${fmt(r.rps, 0)} | ${fmt(r.p50)} | ` +
        `${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.max, 0)} | ${r.p95 <= r.p95TargetMs ? 'met' : '**missed**'} (≤ ${r.p95TargetMs}) | ${fmt(r.serverCpuMs, 2)} |`,
    ),
  ].join('\n');
