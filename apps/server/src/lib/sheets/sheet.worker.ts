// The spreadsheet worker thread (started by sheet-pool.ts, one per file): reads the file it is given with
// read-table.ts and posts the outcome back. The esbuild bundle emits it as dist/sheet-worker.mjs.
import { parentPort, workerData } from 'node:worker_threads';
import { readTable, type TSheetSpec } from './read-table';
import type { TZipLimits } from './zip-directory';

const { data, spec, zip } = workerData as { data: Uint8Array; spec: TSheetSpec; zip: TZipLimits };
const file = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
parentPort?.postMessage(await readTable(file, spec, zip));
