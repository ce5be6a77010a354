// Spreadsheet bombs for the tests and the bench: a real .xlsx zip whose one sheet is a huge, very compressible
// XML (row after row, each with its number), deflated as a stream so the XML is never whole in memory.
// `lie` writes a zip whose directory and local headers declare the sheet as 1 KiB unpacked.
import { crc32, createDeflateRaw } from 'node:zlib';

type TEntry = { name: string; packed: Buffer; size: number; crc: number; method: 0 | 8 };

const stored = (name: string, text: string): TEntry => {
  const data = Buffer.from(text);

  return { name, packed: data, size: data.length, crc: crc32(data), method: 0 };
};

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Contatos" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';

const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

/** the sheet's XML, deflated as it is produced */
const deflatedSheet = async (rows: number, pad: number): Promise<TEntry> => {
  const deflate = createDeflateRaw({ level: 6 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let size = 0;
  let crc = 0;
  const write = (text: string) => {
    const data = Buffer.from(text);
    size += data.length;
    crc = crc32(data, crc);
    deflate.write(data);
  };
  const filler = 'x'.repeat(pad);
  write(
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
  );
  write(`<row r="1">${inline('A1', 'Nome')}${inline('B1', 'Telefone')}</row>`);
  let batch = '';
  for (let r = 2; r <= rows + 1; r += 1) {
    batch += `<row r="${r}">${inline(`A${r}`, `C${filler}`)}<c r="B${r}"><v>5511900000000</v></c></row>`;
    if (batch.length > 1 << 16) {
      write(batch);
      batch = '';
      // let the deflate stream drain what it holds
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  write(`${batch}</sheetData></worksheet>`);
  deflate.end();
  await done;

  return { name: 'xl/worksheets/sheet1.xml', packed: Buffer.concat(out), size, crc, method: 8 };
};

/** a zip of the entries; `declare` overrides the unpacked size written for an entry */
const zipOf = (entries: TEntry[], declare: (entry: TEntry) => number) => {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.packed.length, 18);
    local.writeUInt32LE(declare(entry), 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.packed.length, 20);
    central.writeUInt32LE(declare(entry), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    directory.push(central, name);
    parts.push(local, name, entry.packed);
    offset += local.length + name.length + entry.packed.length;
  }
  const dir = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);

  return Buffer.concat([...parts, dir, end]);
};

/**
 * An .xlsx with a header (Nome, Telefone) and `rows` data rows whose name cell is `pad` characters long;
 * `lie`: the directory declares the sheet as 1 KiB. Returns the file and the sheet's real unpacked size.
 */
export const bombXlsx = async (opts: { rows: number; pad?: number; lie?: boolean }) => {
  const sheet = await deflatedSheet(opts.rows, opts.pad ?? 8);
  const entries = [
    stored('[Content_Types].xml', CONTENT_TYPES),
    stored('_rels/.rels', ROOT_RELS),
    stored('xl/workbook.xml', WORKBOOK),
    stored('xl/_rels/workbook.xml.rels', WORKBOOK_RELS),
    sheet,
  ];
  const file = zipOf(entries, (entry) => (opts.lie && entry === sheet ? 1024 : entry.size));

  return { file, unpacked: sheet.size };
};
