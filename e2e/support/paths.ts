import { resolve } from 'node:path';

/** the monorepo root */
export const ROOT_DIR = resolve(import.meta.dirname, '../..');
/** screenshots and the server log of a run (gitignored) */
export const ARTIFACTS_DIR = resolve(import.meta.dirname, '../artifacts');
