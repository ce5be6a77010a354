/**
 * Migration levels: an archive names the last migration applied to its database (drizzle's `created_at`, the
 * journal's `when`). Restore loads the rows into a schema at exactly that level (a folder holding the build's
 * first N migrations and a journal of those N), then runs the full set, so every later migration's data steps
 * apply to the restored rows as they would on a server upgraded in place.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_FOLDER } from '../db/client';

type TJournal = { version: string; dialect: string; entries: { idx: number; when: number; tag: string }[] };

export const readJournal = (): TJournal =>
  JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as TJournal;

/** the journal's tag of the migration applied at `when`; null when this build does not know it */
export const journalTag = (when: string | null) =>
  when === null ? null : (readJournal().entries.find((e) => String(e.when) === when)?.tag ?? null);

/** a migrations folder holding the build's first `count` migrations; the caller removes it */
export const migrationsUpTo = (count: number) => {
  const journal = readJournal();
  const dir = mkdtempSync(join(tmpdir(), 'zelo-migrations-'));
  mkdirSync(join(dir, 'meta'));
  const entries = journal.entries.slice(0, count);
  for (const entry of entries) cpSync(join(MIGRATIONS_FOLDER, `${entry.tag}.sql`), join(dir, `${entry.tag}.sql`));
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));

  return dir;
};
