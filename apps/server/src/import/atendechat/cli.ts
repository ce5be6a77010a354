/**
 * `npm run import:atendechat -- --from postgres://… [--media /path/to/backend/public] [--dry-run]`
 *
 * Fills the Zelo database `npm start` would open (DATABASE_URL, else the embedded one under DATA_DIR, refused
 * while a Zelo server holds it) from an Atendechat / Whaticket SaaS database, media into DATA_DIR/media.
 * Exit codes: 0 imported (every row imported or skipped with its reason), 2 refused (nothing written),
 * 1 failed (the committed batches stay; run again to resume).
 */
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../../config';
import { openDatabase, runMigrations } from '../../db/client';
import { acquireDirLock } from '../../db/lock';
import { useSecretKey } from '../../lib/secrets';
import { MODELS } from './models/index';
import { createPrinter, type TModelReport, type TPrinter } from './report';
import { ImportRefused, runImport } from './run';
import { openSource } from './source';

export type TCliArgs = { from: string; media?: string; dryRun: boolean };

const USAGE =
  'usage: npm run import:atendechat -- --from postgres://user:pass@host:5432/atendechat [--media /path/to/backend/public] [--dry-run]';

export const parseArgs = (argv: string[]): TCliArgs | string => {
  const args: Partial<TCliArgs> = { dryRun: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--from') args.from = value();
    else if (flag === '--media') args.media = value();
    else if (flag === '--dry-run') args.dryRun = true;
    else if (flag === '--help' || flag === '-h') return USAGE;
    else return `unknown option ${argv[i]}\n${USAGE}`;
  }
  if (!args.from || !/^postgres(ql)?:\/\//.test(args.from)) return `--from postgres://… is required\n${USAGE}`;

  return args as TCliArgs;
};

/** the whole command; answers its exit code */
export const importAtendechat = async (
  args: TCliArgs,
  env: NodeJS.ProcessEnv = process.env,
  printer: TPrinter = createPrinter(),
): Promise<{ code: number; reports?: TModelReport[] }> => {
  let release: () => void = () => undefined;
  try {
    const config = loadConfig(env);
    if (!config.databaseUrl) {
      try {
        release = acquireDirLock(config.dataDir);
      } catch (err) {
        throw new ImportRefused(
          `${(err as Error).message}\nStop the Zelo server that uses DATA_DIR=${config.dataDir} and run the import again.`,
        );
      }
    }
    useSecretKey(config.secretKey);
    const source = await openSource(args.from).catch((err: Error) => {
      throw new ImportRefused(`Cannot read the source database: ${err.message}`);
    });
    const database = await openDatabase(config);
    try {
      if (!args.dryRun) await runMigrations(database);
      const reports = await runImport({
        database,
        source,
        config,
        mediaRoot: args.media,
        dryRun: args.dryRun,
        models: MODELS,
        printer,
        // rows per batch (tests use small batches to stop an import between two)
        batch: Number(env.ZELO_IMPORT_BATCH) > 0 ? Number(env.ZELO_IMPORT_BATCH) : undefined,
      });

      return { code: 0, reports };
    } finally {
      await source.close();
      await database.close();
    }
  } catch (err) {
    printer.done();
    if (err instanceof ImportRefused) {
      printer.line(`Refused: ${err.message}`);

      return { code: 2 };
    }
    printer.line(`Import failed: ${(err as Error).stack ?? err}`);
    printer.line('Batches written so far are kept; run the same command again to resume.');

    return { code: 1 };
  } finally {
    release();
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n`);
    process.exit(args.startsWith('usage') ? 0 : 2);
  }
  const { code } = await importAtendechat(args);
  process.exit(code);
}
