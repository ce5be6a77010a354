import { CONTACT_LIST_COLUMNS, CONTACT_LIST_IMPORT_MAX_ROWS, V } from '@zelo/shared';
import type { TConfig } from '../../config';
import { AppError } from '../../http/errors';
import type { TTableOutcome } from '../../lib/sheets/read-table';
import { readSheetInWorker } from '../../lib/sheets/sheet-pool';
import type { TCell } from '../../lib/sheets/xlsx-rows';

/** one data row of a spreadsheet: its row number in the file (the header is row 1) and its cells as text */
export type TSheetRow = { row: number; name: string; number: string; email: string };

const invalid = (message: string) =>
  new AppError('ERR_INVALID_SPREADSHEET', message, [{ path: 'file', message: V.invalid }]);

const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** the OLE2 compound file of the legacy binary .xls */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (data: Buffer, magic: number[]) =>
  data.length >= magic.length && magic.every((b, i) => data[i] === b);

export type TSheetKind = 'xlsx' | 'csv';

/**
 * What the upload is, by its content first: an .xlsx (a zip) or text (.csv). A legacy .xls (by name or by
 * content) is refused with its own code, telling to save it as .xlsx; anything else is not a spreadsheet.
 */
export const sheetKind = (fileName: string, data: Buffer): TSheetKind => {
  const name = fileName.toLowerCase();
  if (startsWith(data, OLE2) || name.endsWith('.xls')) {
    throw new AppError(
      'ERR_LEGACY_XLS',
      'Legacy .xls workbooks cannot be read: open it and save it as .xlsx (or .csv), then import that file',
      [{ path: 'file', message: V.invalid }],
    );
  }
  if (startsWith(data, ZIP)) return 'xlsx';
  const head = data.subarray(0, 4096);
  if (!name.endsWith('.xlsx') && data.length > 0 && !head.includes(0)) return 'csv';
  throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Only .xlsx and .csv spreadsheets are accepted', [
    { path: 'file', message: V.invalid },
  ]);
};

const invalidColumns = () =>
  invalid(
    'The first row must name the columns: Nome/Name/Nombre and Número/Number/Telefone/Phone/Teléfono (and optionally Email)',
  );

const tooMany = () => invalid(`At most ${CONTACT_LIST_IMPORT_MAX_ROWS} rows per import`);

const failure = (kind: TSheetKind, outcome: Exclude<TTableOutcome, { ok: true }>) => {
  switch (outcome.reason) {
    case 'too-large':
      return new AppError('ERR_SPREADSHEET_TOO_LARGE', outcome.message);
    case 'too-many-rows':
      return tooMany();
    case 'unreadable':
      return invalid(outcome.message);
    case 'no-rows':
      return invalid(kind === 'xlsx' ? 'The workbook has no rows' : 'The file has no rows');
    default:
      return invalidColumns();
  }
};

/** a cell as text: numbers without a number format (a phone number in a numeric cell keeps all its digits) */
const cellText = (cell: TCell | undefined) => {
  if (typeof cell === 'number') return Number.isInteger(cell) ? cell.toFixed(0) : String(cell);

  return cell ?? '';
};

/**
 * The data rows of an upload (.xlsx or .csv), read in a worker (lib/sheets): the header names the columns
 * (pt, en, es; any case, accents, spaces or dashes); a file that is not a readable sheet with the columns is
 * refused, and so is one with more than twice the row limit in rows (blank ones included) or more than the
 * limit in filled ones, as soon as the reader reaches that row.
 */
export const readContactListSheet = async (
  config: TConfig,
  companyId: number,
  fileName: string,
  data: Buffer,
): Promise<TSheetRow[]> => {
  const kind = sheetKind(fileName, data);
  const outcome = await readSheetInWorker(config, companyId, data, {
    kind,
    columns: CONTACT_LIST_COLUMNS,
    required: ['name', 'number'],
    labels: 'name',
    maxRowNumber: CONTACT_LIST_IMPORT_MAX_ROWS * 2 + 1,
    maxRows: CONTACT_LIST_IMPORT_MAX_ROWS,
  });
  if (!outcome.ok) throw failure(kind, outcome);

  return outcome.rows.map(({ row, values }) => ({
    row,
    name: cellText(values.name),
    number: cellText(values.number),
    email: cellText(values.email),
  }));
};
