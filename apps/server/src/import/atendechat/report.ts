/**
 * The import's counts per model (rows in the source, imported, skipped and adjusted with their reasons, time)
 * and how they are shown: a progress line per batch on a terminal, a table at the end.
 */

export type TModelReport = {
  model: string;
  source: number;
  imported: number;
  /** reason → rows not imported */
  skipped: Record<string, number>;
  /** reason → rows imported with a value changed (a colour, a cut name, a missing file…) */
  adjusted: Record<string, number>;
  ms: number;
  /** already imported by an earlier run */
  resumed?: boolean;
};

export const emptyReport = (model: string): TModelReport => ({
  model,
  source: 0,
  imported: 0,
  skipped: {},
  adjusted: {},
  ms: 0,
});

export const bump = (into: Record<string, number>, reason: string, by = 1) => {
  into[reason] = (into[reason] ?? 0) + by;
};

export const mergeCounts = (into: Record<string, number>, from: Record<string, number>) => {
  for (const [reason, n] of Object.entries(from)) bump(into, reason, n);
};

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

export const skippedTotal = (r: TModelReport) => sum(r.skipped);

export type TPrinter = { line: (text: string) => void; progress: (text: string) => void; done: () => void };

/** progress overwrites one line on a terminal; elsewhere (a log file) only the final lines are written */
export const createPrinter = (out: NodeJS.WriteStream = process.stdout): TPrinter => {
  let open = false;

  return {
    line: (text) => {
      if (open) out.write('\n');
      open = false;
      out.write(`${text}\n`);
    },
    progress: (text) => {
      if (!out.isTTY) return;
      out.write(`\r\x1b[2K${text}`);
      open = true;
    },
    done: () => {
      if (open) out.write('\n');
      open = false;
    },
  };
};

const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

/** the final table, then one line per skip or adjustment reason */
export const formatReport = (reports: TModelReport[], opts: { dryRun: boolean; ms: number }): string[] => {
  const width = Math.max(5, ...reports.map((r) => r.model.length));
  const lines = [
    opts.dryRun ? 'Dry run: nothing was written. What an import would do:' : 'Import finished:',
    `${pad('model', width)}  ${padLeft('source', 9)}  ${padLeft('imported', 9)}  ${padLeft('skipped', 8)}  ${padLeft('time', 8)}`,
  ];
  for (const r of reports) {
    const time = r.resumed ? 'earlier' : `${(r.ms / 1000).toFixed(1)} s`;
    lines.push(
      `${pad(r.model, width)}  ${padLeft(String(r.source), 9)}  ${padLeft(String(r.imported), 9)}  ${padLeft(String(skippedTotal(r)), 8)}  ${padLeft(time, 8)}`,
    );
  }
  const reasons = reports.flatMap((r) => [
    ...Object.entries(r.skipped).map(([why, n]) => `  ${r.model}: ${n} skipped: ${why}`),
    ...Object.entries(r.adjusted).map(([why, n]) => `  ${r.model}: ${n} adjusted: ${why}`),
  ]);
  if (reasons.length) lines.push('', 'Details:', ...reasons);
  lines.push('', `Total time ${(opts.ms / 1000).toFixed(1)} s.`);

  return lines;
};
