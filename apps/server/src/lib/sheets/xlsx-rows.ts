// The first sheet of an .xlsx as a stream of rows, without unpacking the workbook into memory: the zip's
// directory is checked first (zip-directory.ts), then only the parts a sheet needs are unpacked, in the
// order we choose (relations, workbook, shared strings, styles, the sheet), each through zip-entry.ts's byte
// guard, and parsed by exceljs's streaming reader (`stream.xlsx.WorkbookReader`). Its part parsers are
// called one by one instead of `read()`, which would unpack entries in file order and spool a sheet that
// comes before its shared strings to a temporary file.
import { Readable } from 'node:stream';
import { type TByteBudget, entryChunks } from './zip-entry';
import { readZipDirectory, SheetError, type TZipEntry, type TZipLimits } from './zip-directory';

/** a cell as read: numbers as numbers, anything else as exceljs's text of it */
export type TCell = string | number;
export type TSheetRow = { row: number; cells: Map<number, TCell> };

type TCellLike = { value: unknown; text: string };
type TRowLike = { number: number; eachCell: (f: (cell: TCellLike, col: number) => void) => void };
/** the parts of exceljs's WorkbookReader used here (its part parsers; not in its typings) */
type TBookReader = {
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: { rId: string }[] };
  _parseRels: (s: Readable) => Promise<void>;
  _parseWorkbook: (s: Readable) => Promise<void>;
  _parseSharedStrings: (s: Readable) => AsyncGenerator<unknown>;
  _parseStyles: (s: Readable) => Promise<void>;
  _parseWorksheet: (
    chunks: AsyncIterable<Buffer>,
    sheetNo: string,
  ) => Generator<{ value: AsyncIterable<TRowLike> & { parse: () => AsyncGenerator<unknown> } }>;
};

const cellOf = (cell: TCellLike): TCell => {
  if (typeof cell.value === 'number') return cell.value;
  try {
    return cell.text ?? '';
  } catch {
    return '';
  }
};

/** the zip path of the workbook's first sheet (its order in workbook.xml), else the lowest-numbered one */
const firstSheetPath = (book: TBookReader, names: Set<string>) => {
  const rId = book.model?.sheets?.[0]?.rId;
  const target = book.workbookRels?.find((rel) => rel.Id === rId)?.Target;
  if (target) {
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
    if (names.has(path)) return path;
  }
  const numbered = [...names]
    .map((name) => /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(name))
    .filter((m) => m !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]));

  return numbered[0]?.[0];
};

/**
 * The rows of the first sheet, in file order (a row's number is its `r`, or its position when the file has
 * none). The consumer stops whenever it wants (a row limit): nothing after that is unpacked.
 */
export async function* xlsxRows(data: Buffer, limits: TZipLimits): AsyncGenerator<TSheetRow> {
  const entries = new Map<string, TZipEntry>(readZipDirectory(data, limits).map((e) => [e.name, e]));
  const budget: TByteBudget = { left: limits.maxUnzippedBytes, total: limits.maxUnzippedBytes };
  const part = (name: string) => {
    const entry = entries.get(name);

    return entry ? Readable.from(entryChunks(data, entry, budget), { objectMode: false }) : undefined;
  };
  // exceljs is large: loaded on the first import, not at start
  const { default: Excel } = await import('exceljs');
  const book = new Excel.stream.xlsx.WorkbookReader(Readable.from([]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  }) as unknown as TBookReader;
  try {
    const rels = part('xl/_rels/workbook.xml.rels');
    if (rels) await book._parseRels(rels);
    const workbook = part('xl/workbook.xml');
    if (workbook) await book._parseWorkbook(workbook);
    const strings = part('xl/sharedStrings.xml');
    // 'cache' keeps the strings on the reader and yields nothing
    if (strings) await book._parseSharedStrings(strings).next();
    const styles = part('xl/styles.xml');
    if (styles) await book._parseStyles(styles);
  } catch (error) {
    throw asSheetError(error);
  }
  const path = firstSheetPath(book, new Set(entries.keys()));
  if (!path) throw new SheetError('unreadable', 'The workbook has no sheet');
  const sheetNo = /(\d+)\.xml$/.exec(path)?.[1] ?? '1';
  const [{ value: sheet }] = [...book._parseWorksheet(entryChunks(data, entries.get(path)!, budget), sheetNo)];
  let position = 0;
  try {
    for await (const row of sheet) {
      position += 1;
      const cells = new Map<number, TCell>();
      row.eachCell((cell, col) => {
        cells.set(col, cellOf(cell));
      });
      // a crafted file may repeat or omit `r`: the position keeps the count honest for the row limit
      yield { row: Number.isSafeInteger(row.number) ? Math.max(row.number, position) : position, cells };
    }
  } catch (error) {
    throw asSheetError(error);
  }
}

const asSheetError = (error: unknown) =>
  error instanceof SheetError ? error : new SheetError('unreadable', 'The file is not a readable .xlsx workbook');
