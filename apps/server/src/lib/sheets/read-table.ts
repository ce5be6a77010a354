// What the spreadsheet worker does with a file: the header row (row 1) names the columns, the rows after it
// are kept as the values of the asked-for columns only. Stops as soon as a limit is passed or the header
// lacks a required column, so nothing past that point is unpacked or parsed.
import { normaliseColumnName } from '@zelo/shared';
import { csvRows } from './csv-rows';
import { type TCell, type TSheetRow, xlsxRows } from './xlsx-rows';
import { SheetError, type TZipLimits } from './zip-directory';

export type TSheetSpec = {
  kind: 'xlsx' | 'csv';
  /** column key → the header labels that name it (already in the form `labels` gives) */
  columns: Record<string, readonly string[]>;
  /** keys the header must name */
  required: readonly string[];
  /** how a header label is compared: trimmed lower case, or shared `normaliseColumnName` */
  labels: 'lower' | 'name';
  /** a row numbered above this (the header is row 1) refuses the file */
  maxRowNumber: number;
  /** more non-blank data rows than this refuses the file */
  maxRows: number;
};

/** one data row: its number in the file and the asked-for columns (strings trimmed; numbers as read) */
export type TTableRow = { row: number; values: Record<string, TCell> };

export type TTableOutcome =
  | { ok: true; rows: TTableRow[] }
  | { ok: false; reason: 'unreadable' | 'too-large' | 'too-many-rows' | 'columns' | 'no-rows'; message: string };

const labelOf = (cell: TCell, mode: TSheetSpec['labels']) => {
  const text = String(cell);

  return mode === 'lower' ? text.trim().toLowerCase() : normaliseColumnName(text);
};

const mapHeader = (spec: TSheetSpec, header: TSheetRow | undefined) => {
  const found: Record<string, number> = {};
  for (const [col, cell] of [...(header?.cells ?? [])].sort((a, b) => a[0] - b[0])) {
    const label = labelOf(cell, spec.labels);
    for (const [key, names] of Object.entries(spec.columns)) {
      if (found[key] === undefined && names.includes(label)) found[key] = col;
    }
  }

  return found;
};

const cellValue = (cell: TCell | undefined): TCell =>
  cell === undefined ? '' : typeof cell === 'number' ? cell : cell.trim();

export const readTable = async (data: Buffer, spec: TSheetSpec, zip: TZipLimits): Promise<TTableOutcome> => {
  const rows: TTableRow[] = [];
  let columns: Record<string, number> | undefined;
  let sawRows = false;
  const tooMany = { ok: false, reason: 'too-many-rows', message: 'too many rows' } as const;
  try {
    const source = spec.kind === 'xlsx' ? xlsxRows(data, zip) : csvRows(data);
    for await (const sheetRow of source) {
      sawRows = true;
      if (sheetRow.row > spec.maxRowNumber) return tooMany;
      if (sheetRow.row === 1) {
        columns = mapHeader(spec, sheetRow);
        if (spec.required.some((key) => columns?.[key] === undefined)) break;
        continue;
      }
      columns ??= mapHeader(spec, undefined);
      if (spec.required.some((key) => columns?.[key] === undefined)) break;
      const values: Record<string, TCell> = {};
      let blank = true;
      for (const [key, col] of Object.entries(columns)) {
        values[key] = cellValue(sheetRow.cells.get(col));
        if (values[key] !== '') blank = false;
      }
      for (const key of Object.keys(spec.columns)) values[key] ??= '';
      if (blank) continue;
      rows.push({ row: sheetRow.row, values });
      if (rows.length > spec.maxRows) return tooMany;
    }
  } catch (error) {
    if (error instanceof SheetError) return { ok: false, reason: error.reason, message: error.message };
    // anything else a crafted file makes a parser throw is still a file we cannot read, never a 500
    return { ok: false, reason: 'unreadable', message: 'The file is not a readable spreadsheet' };
  }
  if (!sawRows) return { ok: false, reason: 'no-rows', message: 'The file has no rows' };
  columns ??= mapHeader(spec, undefined);
  if (spec.required.some((key) => columns?.[key] === undefined)) {
    return { ok: false, reason: 'columns', message: 'The header lacks a required column' };
  }

  return { ok: true, rows };
};
