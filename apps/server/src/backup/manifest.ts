/**
 * What an archive holds, in order: `zelo-backup.json` (the head: format, Zelo version, source, migration level),
 * `db/<table>/<n>.copy` (db-export.ts), `media/<name>` (every media file), `secrets/secret.key` (the key sealing
 * tenant secrets, hex) and `secrets/jwt.json` (the signing secrets), then `manifest.json`: the head again, each
 * table's columns and rows, the sequences, the media counted, and every entry's size and SHA-256; and
 * `manifest.json.sha256`, the manifest's own (so a damaged manifest is refused as damaged, not read). The manifest is
 * last because an archive is written as a stream; restore reads the archive once to check it before it writes
 * anything.
 */
import type { TMigrationLevel, TSequenceValue } from './db-export';

export const ARCHIVE_FORMAT = 1;
export const HEAD_ENTRY = 'zelo-backup.json';
export const MANIFEST_ENTRY = 'manifest.json';
/** the manifest's own SHA-256 (hex), the archive's last entry: the manifest holds the others' checksums, this one its */
export const MANIFEST_SUM_ENTRY = 'manifest.json.sha256';
export const SECRET_KEY_ENTRY = 'secrets/secret.key';
export const JWT_ENTRY = 'secrets/jwt.json';

export type THead = {
  format: number;
  zelo: string;
  createdAt: string;
  /** the database the archive was taken from */
  source: 'pglite' | 'postgres';
  /** the media store it was taken from */
  mediaStore: 'local' | 's3';
  migrations: TMigrationLevel & { tag: string | null };
};

export type TManifest = THead & {
  tables: { name: string; columns: string[]; rows: number; entries: number }[];
  sequences: TSequenceValue[];
  media: { files: number; bytes: number; vanished: string[]; damaged: string[] };
  secrets: { secretKey: boolean; jwt: boolean };
  entries: Record<string, { size: number; sha256: string }>;
  /** how the backup went: the embedded server's pause while its directory was copied, seconds taken */
  took: { seconds: number; pausedMs?: number };
};

export const tableEntry = (table: string, n: number) => `db/${table}/${String(n).padStart(5, '0')}.copy`;
export const mediaEntry = (name: string) => `media/${name}`;
