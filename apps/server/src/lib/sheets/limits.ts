// The operator's limits on reading tenant spreadsheets (SHEET_* variables, config.ts), used by sheet-pool.ts.
import { availableParallelism } from 'node:os';

export type TSheetLimits = {
  /** worker threads reading at once on this server */
  workers: number;
  /** old-generation heap of one worker */
  memoryMb: number;
  /** wall time of one read */
  timeoutMs: number;
  /** the unpacked size of one workbook, declared and actual */
  maxUnzippedMb: number;
};

/** one worker per spare core, at most two */
export const defaultSheetWorkers = () => Math.max(1, Math.min(2, availableParallelism() - 1));
