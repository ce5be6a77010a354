import type { TConfig } from '../../config';
import { AppError } from '../../http/errors';
import type { TTableOutcome, TTableRow } from '../../lib/sheets/read-table';
import { readSheetInWorker } from '../../lib/sheets/sheet-pool';
import type { TImportRow } from './contacts.service';

/** an .xlsx file is a zip archive: it starts with "PK\x03\x04" */
export const isZip = (data: Buffer) =>
  data.length >= 4 && data[0] === 0x50 && data[1] === 0x4b && data[2] === 0x03 && data[3] === 0x04;

export const MAX_IMPORT_ROWS = 10000;

const HEADERS: Record<keyof TImportRow, string[]> = {
  name: ['nome', 'name'],
  number: ['telefone', 'number', 'numero', 'número', 'phone'],
  email: ['email', 'e-mail'],
};

const invalid = (message: string) =>
  new AppError('ERR_INVALID_SPREADSHEET', message, [{ path: 'file', message: 'invalid' }]);

const failure = (outcome: Exclude<TTableOutcome, { ok: true }>) => {
  switch (outcome.reason) {
    case 'too-large':
      return new AppError('ERR_SPREADSHEET_TOO_LARGE', outcome.message);
    case 'too-many-rows':
      return invalid(`At most ${MAX_IMPORT_ROWS} rows per import`);
    case 'unreadable':
      return invalid(outcome.message);
    default:
      return invalid('The first row must name the columns Nome and Telefone (or name and number)');
  }
};

/** a cell as exceljs's text of it (a number as its plain digits) */
const text = (row: TTableRow, key: keyof TImportRow) => String(row.values[key] ?? '');

/**
 * Reads the first sheet (in a worker, lib/sheets): a header row with Nome/Telefone/Email (or
 * name/number/email, any case), then one contact per row. Blank rows are skipped; a row numbered past
 * 1 + MAX_IMPORT_ROWS refuses the file as soon as it is reached.
 */
export const readContactSheet = async (config: TConfig, companyId: number, data: Buffer): Promise<TImportRow[]> => {
  const outcome = await readSheetInWorker(config, companyId, data, {
    kind: 'xlsx',
    columns: HEADERS,
    required: ['name', 'number'],
    labels: 'lower',
    maxRowNumber: MAX_IMPORT_ROWS + 1,
    maxRows: MAX_IMPORT_ROWS,
  });
  if (!outcome.ok) throw failure(outcome);

  return outcome.rows.map((row) => ({
    name: text(row, 'name'),
    number: text(row, 'number'),
    email: text(row, 'email'),
  }));
};
