/**
 * The ancestor keeps a connection's Baileys session in `Whatsapps.session`: one JSON text
 * `{ creds, keys: { preKeys: {id: …}, sessions: {…}, … } }` written with Baileys' BufferJSON. Zelo keeps the
 * same values one row per key in `channel_auth_state` (`creds`, `<type>:<id>`), also as BufferJSON text, so
 * the values move over unchanged and the connection reconnects without a new QR code.
 */

/** the ancestor's key groups → Baileys' signal key types */
const TYPES: Record<string, string> = {
  preKeys: 'pre-key',
  sessions: 'session',
  senderKeys: 'sender-key',
  appStateSyncKeys: 'app-state-sync-key',
  appStateVersions: 'app-state-sync-version',
  senderKeyMemory: 'sender-key-memory',
};

/** the rows of a stored session; null when there is none; 'bad' when it cannot be read */
export const sessionRows = (value: unknown): { key: string; value: string }[] | null | 'bad' => {
  if (typeof value !== 'string' || value.trim() === '') return null;
  let parsed: { creds?: Record<string, unknown>; keys?: Record<string, Record<string, unknown>> };
  try {
    parsed = JSON.parse(value);
  } catch {
    return 'bad';
  }
  const creds = parsed?.creds;
  if (!creds || typeof creds !== 'object' || !('noiseKey' in creds) || !('signedIdentityKey' in creds)) return 'bad';
  const rows = [{ key: 'creds', value: JSON.stringify(creds) }];
  for (const [group, entries] of Object.entries(parsed.keys ?? {})) {
    const type = TYPES[group];
    if (!type || !entries || typeof entries !== 'object') continue;
    for (const [id, entry] of Object.entries(entries)) {
      if (entry === null || entry === undefined) continue;
      rows.push({ key: `${type}:${id}`.slice(0, 255), value: JSON.stringify(entry) });
    }
  }

  return rows;
};
