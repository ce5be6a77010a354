// A .csv upload as a stream of rows (RFC 4180 records), produced one at a time so the reader stops at its
// row limit without splitting the rest of the file. The text is UTF-8 (with or without BOM), else
// Windows-1252 as spreadsheet programs save it in Brazil; the separator is the one the header line uses most.
import type { TSheetRow } from './xlsx-rows';

const decodeText = (data: Buffer) => {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
};

/** `;` (pt/es locales), `,` or a tab: the one the header line holds most */
const separatorOf = (firstLine: string) => {
  const counts = [';', ',', '\t'].map((sep) => [sep, firstLine.split(sep).length] as const);
  counts.sort((a, b) => b[1] - a[1]);

  return counts[0][0];
};

const asRow = (row: number, fields: string[]): TSheetRow => ({
  row,
  cells: new Map(fields.map((field, i) => [i + 1, field])),
});

/** the records of a .csv file; quoted fields may hold separators, doubled quotes and line breaks */
export function* csvRows(data: Buffer): Generator<TSheetRow> {
  const text = decodeText(data).replace(/^\uFEFF/, '');
  const sep = separatorOf(text.slice(0, text.search(/\r?\n|$/)));
  let record: string[] = [];
  let row = 0;
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
      row += 1;
      yield asRow(row, record);
      record = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || record.length) {
    record.push(field);
    yield asRow(row + 1, record);
  }
}
