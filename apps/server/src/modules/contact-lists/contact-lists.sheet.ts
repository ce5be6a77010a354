import { CONTACT_LIST_COLUMNS, CONTACT_LIST_IMPORT_MAX_ROWS, normaliseColumnName, V } from '@zelo/shared';
import { AppError } from '../../http/errors';

/** one data row of a spreadsheet: its row number in the file (the header is row 1) and its cells as text */
export type TSheetRow = { row: number; name: string; number: string; email: string };

type TColumn = keyof typeof CONTACT_LIST_COLUMNS;

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

/** which column holds what, from the header's labels (pt, en, es; any case, accents, spaces or dashes) */
const mapColumns = (labels: string[]) => {
  const columns: Partial<Record<TColumn, number>> = {};
  labels.forEach((label, index) => {
    const key = normaliseColumnName(label);
    for (const [column, names] of Object.entries(CONTACT_LIST_COLUMNS) as [TColumn, readonly string[]][]) {
      if (columns[column] === undefined && names.includes(key)) columns[column] = index;
    }
  });
  if (columns.name === undefined || columns.number === undefined) {
    throw invalid(
      'The first row must name the columns: Nome/Name/Nombre and Número/Number/Telefone/Phone/Teléfono (and optionally Email)',
    );
  }

  return columns as Record<'name' | 'number', number> & { email?: number };
};

const tooMany = () => invalid(`At most ${CONTACT_LIST_IMPORT_MAX_ROWS} rows per import`);

const toRows = (header: string[], body: { row: number; cells: string[] }[]): TSheetRow[] => {
  const columns = mapColumns(header);
  const rows: TSheetRow[] = [];
  for (const { row, cells } of body) {
    const cell = (index: number | undefined) => (index === undefined ? '' : (cells[index] ?? '').trim());
    const item = { row, name: cell(columns.name), number: cell(columns.number), email: cell(columns.email) };
    if (!item.name && !item.number && !item.email) continue;
    rows.push(item);
    if (rows.length > CONTACT_LIST_IMPORT_MAX_ROWS) throw tooMany();
  }

  return rows;
};

// ---- .xlsx

type TCellLike = { value: unknown; text: string };

/** a cell as text: numbers without a number format (a phone number in a numeric cell keeps all its digits) */
const cellText = (cell: TCellLike) => {
  if (typeof cell.value === 'number') return Number.isInteger(cell.value) ? cell.value.toFixed(0) : String(cell.value);
  try {
    return cell.text ?? '';
  } catch {
    return '';
  }
};

const readXlsx = async (data: Buffer): Promise<TSheetRow[]> => {
  // exceljs is large: loaded on the first import, not at start
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw invalid('The file is not a readable .xlsx workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet || sheet.rowCount === 0) throw invalid('The workbook has no rows');
  if (sheet.rowCount - 1 > CONTACT_LIST_IMPORT_MAX_ROWS * 2) throw tooMany();
  const width = sheet.columnCount;
  const cellsOf = (r: number) => {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= width; c += 1) cells.push(cellText(row.getCell(c) as TCellLike));

    return cells;
  };
  const body: { row: number; cells: string[] }[] = [];
  for (let r = 2; r <= sheet.rowCount; r += 1) body.push({ row: r, cells: cellsOf(r) });

  return toRows(cellsOf(1), body);
};

// ---- .csv

/** UTF-8 (with or without BOM), else Windows-1252 as spreadsheet programs save it in Brazil */
const decodeText = (data: Buffer) => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
};

/** the separator the header line uses most: `;` (pt/es locales), `,` or a tab */
const separatorOf = (firstLine: string) => {
  const counts = [';', ',', '\t'].map((sep) => [sep, firstLine.split(sep).length] as const);
  counts.sort((a, b) => b[1] - a[1]);

  return counts[0][0];
};

/** RFC 4180 records: quoted fields may hold separators, doubled quotes and line breaks */
export const parseCsv = (text: string): string[][] => {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const sep = separatorOf(firstLine);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === sep) {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      if (records.length > CONTACT_LIST_IMPORT_MAX_ROWS * 2) throw tooMany();
    } else field += ch;
  }
  if (field !== '' || record.length) {
    record.push(field);
    records.push(record);
  }

  return records;
};

const readCsv = (data: Buffer): TSheetRow[] => {
  const records = parseCsv(decodeText(data).replace(/^\uFEFF/, ''));
  if (records.length === 0) throw invalid('The file has no rows');

  return toRows(
    records[0],
    records.slice(1).map((cells, i) => ({ row: i + 2, cells })),
  );
};

/** the data rows of an upload (.xlsx or .csv); a file that is not a readable sheet with the columns is refused */
export const readContactListSheet = async (fileName: string, data: Buffer): Promise<TSheetRow[]> =>
  sheetKind(fileName, data) === 'xlsx' ? readXlsx(data) : readCsv(data);
