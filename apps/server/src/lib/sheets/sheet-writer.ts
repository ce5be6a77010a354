import { PassThrough, Readable } from 'node:stream';
import { writeXlsxFile } from './xlsx-writer';

/**
 * Tables written as files people open in a spreadsheet (the report exports, modules/reports/reports.export.ts), as
 * a stream: the rows come in pages (an async iterable of row arrays) and leave as they come, so a file of a
 * million rows costs the memory of one page.
 *
 * CSV: UTF-8 with a BOM (so Excel reads accents), CRLF lines, the separator and decimal mark of the reader's
 * language (`;` and `,` for pt and es, `,` and `.` for en: what Excel in that language opens without an import
 * dialog). A text cell is quoted when it holds the separator, a quote or a line break, and one that starts like a
 * formula (= + - @ tab CR) gets a leading apostrophe, so a spreadsheet shows it and never evaluates it — the web
 * app's contacts export (features/contacts/contactsCache.ts `csvCell`) follows the same rule. Numbers are
 * written as numbers, never neutralised (a negative number stays a number).
 *
 * XLSX: one sheet written as the pages come (xlsx-writer.ts, a ZIP made front to back); text cells are inline
 * strings, which a spreadsheet never evaluates, so they are written as they are. Rates carry a percent format,
 * date-times a date format (their value is the wall-clock time given, no zone).
 */

/** how a column's values are written: text, whole or decimal numbers, a 0–1 rate, a 'yyyy-MM-dd HH:mm:ss' time */
export type TSheetColumnKind = 'text' | 'int' | 'decimal' | 'rate' | 'datetime';
export type TSheetColumn = { header: string; kind: TSheetColumnKind };
export type TSheetCell = string | number | null | undefined;
export type TSheetFormat = 'csv' | 'xlsx';
export type TCsvStyle = { separator: ';' | ','; decimal: ',' | '.' };

export const CSV_TYPE = 'text/csv; charset=utf-8';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const FORMULA_START = /^[=+\-@\t\r]/;

/** text made inert for spreadsheets: a leading formula character gets an apostrophe before it */
export const neutraliseFormula = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** one CSV cell */
export const csvCell = (value: TSheetCell, style: TCsvStyle) => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    const text = String(value);

    return style.decimal === '.' ? text : text.replace('.', style.decimal);
  }
  const text = neutraliseFormula(value);
  if (text.includes(style.separator) || /["\r\n]/.test(text)) return `"${text.replaceAll('"', '""')}"`;

  return text;
};

export const csvLine = (cells: readonly TSheetCell[], style: TCsvStyle) =>
  `${cells.map((cell) => csvCell(cell, style)).join(style.separator)}\r\n`;

/** the CSV file: BOM and header, then one chunk per page */
async function* csvChunks(columns: readonly TSheetColumn[], pages: AsyncIterable<TSheetCell[][]>, style: TCsvStyle) {
  yield `\uFEFF${csvLine(
    columns.map((c) => c.header),
    style,
  )}`;
  for await (const rows of pages) {
    if (rows.length === 0) continue;
    let chunk = '';
    for (const row of rows) chunk += csvLine(row, style);
    yield chunk;
  }
}

/** resolves when the stream can take more, or has closed (a client that went away) */
const writable = (stream: PassThrough) =>
  stream.writableNeedDrain && !stream.destroyed
    ? new Promise<void>((resume) => {
        const done = () => {
          stream.off('drain', done);
          stream.off('close', done);
          resume();
        };
        stream.on('drain', done);
        stream.on('close', done);
      })
    : Promise.resolve();

/**
 * The table as a file stream. A failure after the first bytes left ends the stream with that error (the download
 * breaks off; the route's caller sees a truncated file, never a complete-looking one).
 */
export const sheetStream = (
  format: TSheetFormat,
  opts: { sheetName: string; columns: readonly TSheetColumn[]; pages: AsyncIterable<TSheetCell[][]>; csv: TCsvStyle },
): Readable => {
  if (format === 'csv') return Readable.from(csvChunks(opts.columns, opts.pages, opts.csv));
  const out = new PassThrough();
  const sink = {
    write: async (chunk: Buffer) => {
      // a client that went away: the rest is not made
      if (out.destroyed) throw new Error('the reader went away');
      out.write(chunk);
      await writable(out);
    },
  };
  writeXlsxFile(sink, opts.sheetName, opts.columns, opts.pages).then(
    () => out.end(),
    (err: unknown) => out.destroy(err as Error),
  );

  return out;
};
