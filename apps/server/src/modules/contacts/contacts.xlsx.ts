import type { Row } from 'exceljs';
import { AppError } from '../../http/errors';
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

/**
 * Reads the first sheet: a header row with Nome/Telefone/Email (or name/number/email, any case), then one
 * contact per row. Blank rows are skipped.
 */
export const readContactSheet = async (data: Buffer): Promise<TImportRow[]> => {
  // exceljs is large: loaded on the first import, not at start
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw invalid('The file is not a readable .xlsx workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw invalid('The workbook has no sheet');
  const columns: Partial<Record<keyof TImportRow, number>> = {};
  sheet.getRow(1).eachCell((cell, col) => {
    const label = cell.text.trim().toLowerCase();
    for (const [key, names] of Object.entries(HEADERS) as [keyof TImportRow, string[]][]) {
      if (names.includes(label) && columns[key] === undefined) columns[key] = col;
    }
  });
  if (columns.name === undefined || columns.number === undefined) {
    throw invalid('The first row must name the columns Nome and Telefone (or name and number)');
  }
  if (sheet.rowCount - 1 > MAX_IMPORT_ROWS) throw invalid(`At most ${MAX_IMPORT_ROWS} rows per import`);
  const cellText = (row: Row, col: number | undefined) => (col === undefined ? '' : row.getCell(col).text.trim());
  const rows: TImportRow[] = [];
  for (let r = 2; r <= sheet.rowCount; r += 1) {
    const row = sheet.getRow(r);
    const item = {
      name: cellText(row, columns.name),
      number: cellText(row, columns.number),
      email: cellText(row, columns.email),
    };
    if (item.name || item.number || item.email) rows.push(item);
  }

  return rows;
};
