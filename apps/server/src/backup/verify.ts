/**
 * Reads a whole archive once and checks it against its manifest before restore writes anything: every entry's
 * size and SHA-256, none missing and none extra, the head and the manifest agreeing, the format known and the
 * migration level one this build has (an archive from a newer Zelo is refused: restore it with that version or a
 * later one). Answers the manifest and the secrets it holds.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { readJournal } from './levels';
import {
  ARCHIVE_FORMAT,
  HEAD_ENTRY,
  JWT_ENTRY,
  MANIFEST_ENTRY,
  MANIFEST_SUM_ENTRY,
  SECRET_KEY_ENTRY,
  type TManifest,
} from './manifest';
import { readTar } from './tar';

export class ArchiveError extends Error {}

export type TVerified = {
  manifest: TManifest;
  secretKey?: string;
  jwt?: { jwtSecret: string; jwtRefreshSecret: string };
  /** the build's migrations the archive's database has applied (restore loads at this level) */
  level: number;
};

const collect = async (body: AsyncIterable<Buffer>) => {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
};

export const verifyArchive = async (
  path: string,
  onProgress?: (read: number, total: number) => void,
): Promise<TVerified> => {
  const total = (await stat(path)).size;
  const seen = new Map<string, { size: number; sha256: string }>();
  let read = 0;
  let manifest: TManifest | undefined;
  let manifestSum = '';
  /** absent in archives written before it was added: their manifest is then trusted as read */
  let statedManifestSum: string | undefined;
  let head: TManifest | undefined;
  let secretKey: string | undefined;
  let jwt: TVerified['jwt'];
  try {
    for await (const entry of readTar(createReadStream(path, { highWaterMark: 1024 * 1024 }))) {
      if (entry.name === MANIFEST_ENTRY) {
        const bytes = await collect(entry.body);
        manifestSum = createHash('sha256').update(bytes).digest('hex');
        manifest = JSON.parse(bytes.toString('utf8')) as TManifest;
        continue;
      }
      if (entry.name === MANIFEST_SUM_ENTRY) {
        statedManifestSum = (await collect(entry.body)).toString('utf8').trim();
        continue;
      }
      const small = entry.name === HEAD_ENTRY || entry.name === SECRET_KEY_ENTRY || entry.name === JWT_ENTRY;
      const hash = createHash('sha256');
      const kept: Buffer[] = [];
      for await (const part of entry.body) {
        hash.update(part);
        if (small) kept.push(part);
        read += part.length;
        onProgress?.(read, total);
      }
      seen.set(entry.name, { size: entry.size, sha256: hash.digest('hex') });
      if (entry.name === HEAD_ENTRY) head = JSON.parse(Buffer.concat(kept).toString('utf8')) as TManifest;
      if (entry.name === SECRET_KEY_ENTRY) secretKey = Buffer.concat(kept).toString('utf8').trim();
      if (entry.name === JWT_ENTRY) jwt = JSON.parse(Buffer.concat(kept).toString('utf8')) as TVerified['jwt'];
    }
  } catch (err) {
    throw new ArchiveError(`the archive is damaged: ${(err as Error).message}`);
  }
  if (!manifest || !head) throw new ArchiveError('not a Zelo backup: no manifest (an archive cut short?)');
  if (statedManifestSum !== undefined && statedManifestSum !== manifestSum) {
    throw new ArchiveError(`the archive is damaged:\n  ${MANIFEST_ENTRY}: checksum differs`);
  }
  if (manifest.format !== ARCHIVE_FORMAT) throw new ArchiveError(`unknown archive format ${manifest.format}`);
  const problems: string[] = [];
  for (const [name, expected] of Object.entries(manifest.entries)) {
    const found = seen.get(name);
    if (!found) problems.push(`${name}: missing`);
    else if (found.size !== expected.size || found.sha256 !== expected.sha256)
      problems.push(`${name}: checksum differs`);
  }
  for (const name of seen.keys()) if (!manifest.entries[name]) problems.push(`${name}: not in the manifest`);
  if (head.createdAt !== manifest.createdAt || head.migrations.when !== manifest.migrations.when) {
    problems.push(`${HEAD_ENTRY}: differs from the manifest`);
  }
  if (problems.length > 0) {
    throw new ArchiveError(`the archive is damaged:\n  ${problems.slice(0, 20).join('\n  ')}`);
  }
  const journal = readJournal();
  const level = journal.entries.findIndex((e) => String(e.when) === manifest.migrations.when) + 1;
  if (level === 0 || level !== manifest.migrations.count) {
    throw new ArchiveError(
      `the archive's database is at a migration this Zelo does not have (${manifest.migrations.tag ?? manifest.migrations.when}, from Zelo ${manifest.zelo}): restore it with that version or a later one`,
    );
  }

  return { manifest, secretKey, jwt, level };
};
