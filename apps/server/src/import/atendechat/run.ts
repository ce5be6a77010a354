/**
 * One import run: checks the source is an Atendechat database and the target a fresh Zelo (or one this
 * importer was filling), then walks the models in order. Each batch is written in one transaction together
 * with its progress row (`import_atendechat_progress`), so a run killed at any moment resumes after the last
 * committed batch and a finished run imports nothing again. Ends by moving every sequence past the largest id.
 */
import { sql } from 'drizzle-orm';
import type { TConfig } from '../../config';
import type { TDatabase, TDb } from '../../db/client';
import { createMediaCopier } from './media';
import { newState, type TModel, type TModelContext } from './model';
import { bump, emptyReport, formatReport, mergeCounts, type TModelReport, type TPrinter } from './report';
import { missingFrom, type TSource } from './source';

export class ImportRefused extends Error {}

const PROGRESS = 'import_atendechat_progress';
/** the first start's rows: one plan, the operator's company, its super user */
const FIRST_START: Record<string, number> = { plans: 1, companies: 1, users: 1 };
/** bookkeeping tables that may hold rows in a fresh Zelo */
const IGNORED = new Set([PROGRESS, 'channel_leases']);

type TProgressRow = {
  model: string;
  last_key: unknown[] | null;
  done: boolean;
  imported: number;
  skipped: Record<string, number>;
  adjusted: Record<string, number>;
};

const rowsOf = async <T>(db: TDb, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const readProgress = async (db: TDb): Promise<Map<string, TProgressRow> | undefined> => {
  const [exists] = await rowsOf<{ t: string | null }>(db, sql`select to_regclass(${PROGRESS})::text as t`);
  if (!exists?.t) return undefined;
  const rows = await rowsOf<TProgressRow>(db, sql.raw(`select * from ${PROGRESS}`));

  return new Map(rows.map((r) => [r.model, r]));
};

/** what makes the target not fresh: tables holding rows beyond the first start's */
export const tenantDataFound = async (db: TDb): Promise<string[]> => {
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    if (IGNORED.has(name)) continue;
    const allowed = FIRST_START[name] ?? 0;
    const [{ n }] = await rowsOf<{ n: number }>(
      db,
      sql.raw(`select count(*)::int as n from (select 1 from "${name}" limit ${allowed + 1}) x`),
    );
    if (n > allowed) found.push(allowed === 0 ? `${name}: has rows` : `${name}: more rows than a first start makes`);
  }
  if (found.length === 0 && tables.some((t) => t.name === 'users')) {
    const [nonSuper] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from users where not super`);
    if (nonSuper.n > 0) found.push('users: a user who is not the first super user');
  }

  return found;
};

const saveProgress = async (db: TDb | Parameters<Parameters<TDb['transaction']>[0]>[0], row: TProgressRow) => {
  await db.execute(sql`
    insert into ${sql.raw(PROGRESS)} (model, last_key, done, imported, skipped, adjusted, updated_at)
    values (${row.model}, ${JSON.stringify(row.last_key)}::jsonb, ${row.done}, ${row.imported},
            ${JSON.stringify(row.skipped)}::jsonb, ${JSON.stringify(row.adjusted)}::jsonb, now())
    on conflict (model) do update set last_key = excluded.last_key, done = excluded.done, imported = excluded.imported,
      skipped = excluded.skipped, adjusted = excluded.adjusted, updated_at = now()`);
};

/** every serial / identity sequence of the schema moved past its table's largest id */
export const moveSequences = async (db: TDb) => {
  const serials = await rowsOf<{ t: string; c: string; s: string }>(
    db,
    sql`select c.table_name as t, c.column_name as c, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) as s
        from information_schema.columns c
        where c.table_schema = current_schema() and c.column_default like 'nextval(%'`,
  );
  for (const { t, c, s } of serials) {
    if (!s) continue;
    await db.execute(
      sql.raw(`select setval('${s.replaceAll("'", "''")}', coalesce((select max("${c}") from "${t}"), 0) + 1, false)`),
    );
  }
};

export type TRunOptions = {
  database: TDatabase;
  source: TSource;
  config: TConfig;
  mediaRoot?: string;
  dryRun: boolean;
  models: TModel[];
  printer: TPrinter;
  /** rows per batch for every model (else each model's own) */
  batch?: number;
};

export const runImport = async (opts: TRunOptions): Promise<TModelReport[]> => {
  const { database, source, dryRun, printer } = opts;
  const db = database.db;
  const started = Date.now();

  const missing = opts.models.flatMap((m) => missingFrom(source, m.table, m.required));
  if (missing.length) {
    throw new ImportRefused(
      `The source is not an Atendechat / Whaticket database this importer knows; it lacks:\n  ${[...new Set(missing)].join('\n  ')}`,
    );
  }
  const known = new Map<string, Set<string>>();
  for (const m of opts.models) {
    const set = known.get(m.table) ?? new Set();
    for (const c of [...m.required, ...(m.optional ?? [])]) set.add(c);
    known.set(m.table, set);
  }
  const unknown: string[] = [];
  for (const [table, set] of known) {
    for (const c of source.columns.get(table) ?? []) if (!set.has(c)) unknown.push(`${table}.${c}`);
  }
  if (unknown.length) printer.line(`Columns this importer does not know, ignored: ${unknown.join(', ')}`);

  let progress = await readProgress(db);
  if (!progress?.has('_start')) {
    const found = await tenantDataFound(db);
    if (found.length) {
      throw new ImportRefused(
        `The target Zelo database already holds data, so nothing was imported. Found:\n  ${found.join('\n  ')}\nImport into a fresh Zelo (a new DATA_DIR or an empty DATABASE_URL).`,
      );
    }
    if (!dryRun) {
      await db.transaction(async (tx) => {
        await tx.execute(
          sql.raw(`create table if not exists ${PROGRESS} (
            model varchar(64) primary key, last_key jsonb, done boolean not null default false,
            imported integer not null default 0, skipped jsonb not null default '{}', adjusted jsonb not null default '{}',
            updated_at timestamptz not null default now())`),
        );
        // the source's plans, companies and users replace the first start's
        await tx.execute(sql`delete from users`);
        await tx.execute(sql`delete from companies`);
        await tx.execute(sql`delete from plans`);
        await saveProgress(tx, {
          model: '_start',
          last_key: null,
          done: true,
          imported: 0,
          skipped: {},
          adjusted: {},
        });
      });
      progress = await readProgress(db);
    }
  } else {
    printer.line('Resuming the import this target holds.');
  }

  const state = newState();
  const ctx: TModelContext = {
    config: opts.config,
    state,
    media: createMediaCopier(opts.config, opts.mediaRoot, dryRun),
    dryRun,
  };
  const reports: TModelReport[] = [];
  for (const model of opts.models) {
    const report = emptyReport(model.name);
    reports.push(report);
    report.source = await source.count(model.table, model.where);
    const saved = progress?.get(model.name);
    if (saved) {
      report.imported = saved.imported;
      mergeCounts(report.skipped, saved.skipped);
      mergeCounts(report.adjusted, saved.adjusted);
      await model.restore?.(db, state);
    }
    await model.prepare?.((text) => source.query(text), state);
    if (saved?.done) {
      report.resumed = true;
      continue;
    }
    const begun = Date.now();
    const row: TProgressRow = saved ?? {
      model: model.name,
      last_key: null,
      done: false,
      imported: 0,
      skipped: {},
      adjusted: {},
    };
    let seen = 0;
    if (!dryRun) await model.before?.(db);
    for await (const page of source.pages(model.table, model.key, {
      after: row.last_key ?? undefined,
      size: opts.batch ?? model.batch ?? 1000,
      where: model.where,
      select: model.select,
    })) {
      const batchSkipped: Record<string, number> = {};
      const batchAdjusted: Record<string, number> = {};
      const rows: Record<string, unknown>[] = [];
      for (const sourceRow of page) {
        const mapped = await model.map(sourceRow, ctx);
        if ('skip' in mapped) bump(batchSkipped, mapped.skip);
        else {
          rows.push(mapped.row);
          for (const why of mapped.adjusted ?? []) bump(batchAdjusted, why);
        }
      }
      const last = page[page.length - 1];
      const next: TProgressRow = {
        ...row,
        last_key: model.key.map((k) => last[k]),
        imported: row.imported + rows.length,
        skipped: { ...row.skipped },
        adjusted: { ...row.adjusted },
      };
      mergeCounts(next.skipped, batchSkipped);
      mergeCounts(next.adjusted, batchAdjusted);
      if (!dryRun) {
        await db.transaction(async (tx) => {
          if (rows.length) await model.write(tx, rows, ctx);
          await saveProgress(tx, next);
        });
      }
      Object.assign(row, next);
      seen += page.length;
      const secs = Math.max(0.001, (Date.now() - begun) / 1000);
      printer.progress(`${model.name}: ${seen}/${report.source} rows, ${Math.round(seen / secs)} rows/s`);
    }
    row.done = true;
    if (!dryRun) await saveProgress(db, row);
    report.imported = row.imported;
    report.skipped = row.skipped;
    report.adjusted = row.adjusted;
    report.ms = Date.now() - begun;
    printer.progress(`${model.name}: done`);
  }
  if (!dryRun) {
    await moveSequences(db);
    // fresh statistics for the server's first queries (the embedded database has no autovacuum)
    await db.execute(sql`analyze`);
  }
  printer.done();
  for (const line of formatReport(reports, { dryRun, ms: Date.now() - started })) printer.line(line);

  return reports;
};
