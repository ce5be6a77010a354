import type { TSheetCell, TSheetColumn, TSheetColumnKind } from './sheet-writer';
import { createZipWriter, type TZipSink } from './zip-writer';

/**
 * One-sheet XLSX files written as the rows come (the report exports): the SpreadsheetML parts a spreadsheet needs —
 * content types, relationships, the workbook, four cell styles (plain, bold header, percent, date-time) and the
 * sheet — in a ZIP written front to back (zip-writer.ts). The sheet's XML is made page by page with inline strings
 * (no shared-string table to hold), so memory is one page whatever the row count. exceljs's streaming writer did
 * the same at 10–14k rows/s here; this writes the cells directly (BENCHMARKS.md, "Reports and exports").
 *
 * Cells: text as inline strings (never a formula), numbers as numbers, a rate with the percent style, a
 * 'yyyy-MM-dd HH:mm:ss' wall-clock time as the date serial of that clock with the date-time style; empty cells are
 * left out. The header row is bold and frozen.
 */

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** the cell styles of styles.xml: 0 plain, 1 bold, 2 percent, 3 date-time */
const STYLE: Partial<Record<TSheetColumnKind, number>> = { rate: 2, datetime: 3 };

const STYLES = `${HEAD}<styleSheet xmlns="${NS}"><numFmts count="2"><numFmt numFmtId="164" formatCode="0.0%"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

const CONTENT_TYPES = `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;

const ROOT_RELS = `${HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const WORKBOOK_RELS = `${HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`;

/** characters XML 1.0 cannot hold (control characters but tab, line feed, carriage return; lone surrogates) */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it removes
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const xmlText = (text: string) =>
  text
    .replace(NOT_XML, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

const MS_PER_DAY = 86_400_000;
/** days from 1899-12-30 (Excel's day 0 as spreadsheets count) to 1970-01-01 */
const EPOCH_SERIAL = 25_569;

/** a 'yyyy-MM-dd HH:mm:ss' wall-clock time as its date serial, or null when it is not one */
export const dateSerial = (text: string) => {
  const at = Date.parse(`${text.replace(' ', 'T')}Z`);

  return Number.isNaN(at) ? null : at / MS_PER_DAY + EPOCH_SERIAL;
};

/** the column letters of a cell reference: A … Z, AA … */
const columnName = (index: number): string =>
  index < 26 ? String.fromCharCode(65 + index) : columnName(Math.floor(index / 26) - 1) + columnName(index % 26);

const textCell = (ref: string, text: string, style = 0) =>
  `<c r="${ref}" t="inlineStr"${style ? ` s="${style}"` : ''}><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`;

/** one cell at `ref`; an empty one is left out */
const cellXml = (ref: string, value: TSheetCell, kind: TSheetColumnKind) => {
  if (value === null || value === undefined) return '';
  const style = STYLE[kind];
  if (kind === 'datetime' && typeof value === 'string') {
    const serial = dateSerial(value);
    return serial === null ? textCell(ref, value) : `<c r="${ref}" s="3"><v>${serial}</v></c>`;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? `<c r="${ref}"${style ? ` s="${style}"` : ''}><v>${value}</v></c>` : '';
  }

  return textCell(ref, value);
};

async function* sheetXml(columns: readonly TSheetColumn[], pages: AsyncIterable<TSheetCell[][]>) {
  const widths = columns
    .map(
      (c, i) =>
        `<col min="${i + 1}" max="${i + 1}" width="${Math.min(40, Math.max(10, c.header.length + 2))}" customWidth="1"/>`,
    )
    .join('');
  const letters = columns.map((_, i) => columnName(i));
  yield `${HEAD}<worksheet xmlns="${NS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${widths}</cols><sheetData><row r="1">${columns.map((c, i) => textCell(`${letters[i]}1`, c.header, 1)).join('')}</row>`;
  const kinds = columns.map((c) => c.kind);
  let n = 1;
  for await (const rows of pages) {
    if (rows.length === 0) continue;
    let chunk = '';
    for (const row of rows) {
      n += 1;
      chunk += `<row r="${n}">`;
      for (let i = 0; i < kinds.length; i++) chunk += cellXml(`${letters[i]}${n}`, row[i], kinds[i]!);
      chunk += '</row>';
    }
    yield chunk;
  }
  yield '</sheetData></worksheet>';
}

/** the workbook into `sink`, the rows as the pages come */
export const writeXlsxFile = async (
  sink: TZipSink,
  sheetName: string,
  columns: readonly TSheetColumn[],
  pages: AsyncIterable<TSheetCell[][]>,
) => {
  const zip = createZipWriter(sink);
  const name = xmlText(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1');
  await zip.entry('[Content_Types].xml', [CONTENT_TYPES]);
  await zip.entry('_rels/.rels', [ROOT_RELS]);
  await zip.entry('xl/workbook.xml', [
    `${HEAD}<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ]);
  await zip.entry('xl/_rels/workbook.xml.rels', [WORKBOOK_RELS]);
  await zip.entry('xl/styles.xml', [STYLES]);
  await zip.entry('xl/worksheets/sheet1.xml', sheetXml(columns, pages));
  await zip.finish();
};
