import { FAIRNESS_DEFAULTS, fairnessPglite, fairnessPostgres, type TFairnessOptions } from './tenant-fairness';

/**
 * One database's fairness run in a process of its own (tenant-fairness.ts `fairnessInChild`): the server's
 * per-process caches (the flow runner's ticket queue, the phrase cache) are keyed by ids that two fresh databases
 * share, so a second app in the same process would find the first one's entries. Prints the result as JSON, last.
 */
const [db, json, pgUrl] = process.argv.slice(2);
const opts: TFairnessOptions = { ...FAIRNESS_DEFAULTS, ...JSON.parse(json ?? '{}') };
const result = db === 'postgres' ? await fairnessPostgres(pgUrl ?? '', opts) : await fairnessPglite(opts);
console.log(JSON.stringify(result));
process.exit(0);
