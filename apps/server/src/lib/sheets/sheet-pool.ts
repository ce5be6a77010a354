// Tenant spreadsheets are read off the event loop: each file in its own worker thread (sheet.worker.ts)
// with a heap limit (SHEET_WORKER_MEMORY_MB) and a time limit (SHEET_TIMEOUT_MS), killed when it passes
// either. One file per company at a time (a second one answers 429 ERR_SPREADSHEET_BUSY); SHEET_WORKERS
// files per server, with a short queue of 4 × SHEET_WORKERS waiting files behind them (beyond it, 429 too).
import { Worker } from 'node:worker_threads';
import { AppError } from '../../http/errors';
import type { TConfig } from '../../config';
import type { TSheetLimits } from './limits';
import type { TSheetSpec, TTableOutcome } from './read-table';
import { readZipDirectory, SheetError, type TZipLimits } from './zip-directory';

/** entries in a workbook's zip, and the unpacked ÷ packed ratio above which an entry is a bomb */
const MAX_ENTRIES = 1000;
const MAX_RATIO = 200;

type TGate = { running: number; waiting: (() => void)[]; companies: Set<number> };
/** per server (one per loaded configuration: tests run several servers in one process) */
const gates = new WeakMap<TConfig, TGate>();

const busy = (message: string) => new AppError('ERR_SPREADSHEET_BUSY', message);

/** the worker's module: the .ts source next to this file under tsx, the bundle's own entry in dist/ */
const workerScript = () => {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { file: new URL('./sheet-worker.mjs', here), eval: false };
  // under tsx, the worker registers the TypeScript loader first (a worker does not inherit `--import tsx`)
  const tsx = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
  const source = new URL('./sheet.worker.ts', here).href;

  return {
    file: `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); })`,
    eval: true,
  };
};

const zipLimits = (limits: TSheetLimits): TZipLimits => ({
  maxEntries: MAX_ENTRIES,
  maxUnzippedBytes: limits.maxUnzippedMb * 1024 * 1024,
  maxRatio: MAX_RATIO,
});

const runWorker = (limits: TSheetLimits, data: Buffer, spec: TSheetSpec) =>
  new Promise<TTableOutcome>((resolve, reject) => {
    const copy = new Uint8Array(data);
    const script = workerScript();
    const worker = new Worker(script.file, {
      eval: script.eval,
      workerData: {
        data: copy,
        spec,
        zip: zipLimits(limits),
      },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle(() => resolve({ ok: false, reason: 'too-large', message: 'The spreadsheet takes too long to read' })),
      limits.timeoutMs,
    );
    worker.once('message', (outcome: TTableOutcome) => settle(() => resolve(outcome)));
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? resolve({ ok: false, reason: 'too-large', message: 'The spreadsheet needs too much memory to read' })
          : reject(error),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`spreadsheet worker exited (${code}) without an answer`))),
    );
  });

/**
 * Reads a tenant's spreadsheet in a worker under the server's limits (config.sheets). The company's slot is
 * held from the queue to the answer; the caller maps the outcome to its own messages.
 */
export const readSheetInWorker = async (
  config: TConfig,
  companyId: number,
  data: Buffer,
  spec: TSheetSpec,
): Promise<TTableOutcome> => {
  const limits = config.sheets;
  if (spec.kind === 'xlsx') {
    // the zip's directory is a few KiB: a bomb it gives away is refused here, without a worker
    try {
      readZipDirectory(data, zipLimits(limits));
    } catch (error) {
      if (error instanceof SheetError) return { ok: false, reason: error.reason, message: error.message };
      return { ok: false, reason: 'unreadable', message: 'The file is not a readable .xlsx workbook' };
    }
  }
  let gate = gates.get(config);
  if (!gate) {
    gate = { running: 0, waiting: [], companies: new Set() };
    gates.set(config, gate);
  }
  if (gate.companies.has(companyId)) {
    throw busy('Another spreadsheet of this company is being read: try again when it finishes');
  }
  if (gate.running >= limits.workers && gate.waiting.length >= limits.workers * 4) {
    throw busy('The server is reading too many spreadsheets: try again in a minute');
  }
  gate.companies.add(companyId);
  try {
    // a finishing read hands its slot to the first waiting one
    if (gate.running >= limits.workers) await new Promise<void>((go) => gate.waiting.push(go));
    else gate.running += 1;
    try {
      return await runWorker(limits, data, spec);
    } finally {
      const next = gate.waiting.shift();
      if (next) next();
      else gate.running -= 1;
    }
  } finally {
    gate.companies.delete(companyId);
  }
};
