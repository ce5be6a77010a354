import type { TAuthStateStore } from '../auth-state.repo';
import type { TAuthState, TBaileysKit } from './baileys.types';

/**
 * Baileys' auth state (credentials and signal keys) kept in `channel_auth_state`, one row per key, so
 * any node can resume a paired session and nothing lives in files. Values are JSON with Buffers encoded
 * by Baileys' BufferJSON. `lid:<lid>` rows map a person's privacy id to the phone number seen with it.
 */

export class CorruptAuthState extends Error {}

const CREDS = 'creds';
const keyOf = (type: string, id: string) => `${type}:${id}`;

export type TDbAuthState = {
  state: TAuthState;
  saveCreds: () => Promise<void>;
  /** resolves once every save asked so far has been written (or failed) */
  saved: () => Promise<void>;
  /** logout: forget everything */
  clear: () => Promise<void>;
  lidToNumber: (lid: string) => Promise<string | undefined>;
  rememberLid: (lid: string, number: string) => Promise<void>;
};

export const loadDbAuthState = async (
  store: TAuthStateStore,
  connectionId: number,
  kit: Pick<TBaileysKit, 'initAuthCreds' | 'BufferJSON' | 'appStateSyncKey'>,
): Promise<TDbAuthState> => {
  const parse = (raw: string, what: string) => {
    try {
      return JSON.parse(raw, kit.BufferJSON.reviver) as unknown;
    } catch {
      throw new CorruptAuthState(`stored ${what} is not valid JSON`);
    }
  };
  const write = (value: unknown) => JSON.stringify(value, kit.BufferJSON.replacer);

  const stored = await store.get(connectionId, CREDS);
  let creds: TAuthState['creds'];
  if (stored === undefined) creds = kit.initAuthCreds() as TAuthState['creds'];
  else {
    const parsed = parse(stored, 'credentials');
    if (!parsed || typeof parsed !== 'object' || !('noiseKey' in parsed) || !('signedIdentityKey' in parsed)) {
      throw new CorruptAuthState('stored credentials lack their keys');
    }
    creds = parsed as TAuthState['creds'];
  }

  const state: TAuthState = {
    creds,
    keys: {
      get: async (type, ids) => {
        const rows = await store.getMany(
          connectionId,
          ids.map((id) => keyOf(type, id)),
        );
        const out: Record<string, unknown> = {};
        for (const id of ids) {
          const raw = rows.get(keyOf(type, id));
          if (raw === undefined) continue;
          let value: unknown;
          try {
            value = JSON.parse(raw, kit.BufferJSON.reviver);
          } catch {
            // one unreadable key is dropped (WhatsApp renegotiates it), not the whole session
            continue;
          }
          out[id] = type === 'app-state-sync-key' && value ? kit.appStateSyncKey(value) : value;
        }

        return out;
      },
      set: async (data) => {
        const work: Promise<void>[] = [];
        for (const [type, entries] of Object.entries(data)) {
          for (const [id, value] of Object.entries(entries ?? {})) {
            work.push(
              value === null || value === undefined
                ? store.remove(connectionId, keyOf(type, id))
                : store.set(connectionId, keyOf(type, id), write(value)),
            );
          }
        }
        await Promise.all(work);
      },
    },
  };

  // saves run one after another, each writing the credentials as they are when it runs, so a slow earlier
  // write never lands over a later one
  let saving: Promise<void> = Promise.resolve();
  const saveCreds = () => {
    const next = saving.then(() => store.set(connectionId, CREDS, write(state.creds)));
    saving = next.catch(() => undefined);

    return next;
  };

  return {
    state,
    saveCreds,
    saved: () => saving,
    clear: () => store.clear(connectionId),
    lidToNumber: (lid) => store.get(connectionId, keyOf('lid', lid)),
    rememberLid: (lid, number) => store.set(connectionId, keyOf('lid', lid), number),
  };
};
