import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { TConfig } from '../../config';
import type { TFlowDocument } from '../../db/schema/automation';

/**
 * Secrets inside a flow document: the OpenAI node's `apiKey` and `voiceKey` (under `data.typebotIntegration`)
 * are sealed at rest, masked on every load, and a masked value sent back keeps the stored one.
 *
 * TEMPORARY primitives (seal/open/mask) until branch `ai`'s `lib/secrets.ts` (ZELO_SECRET_KEY) is merged:
 * at merge, replace the three functions below with that module's and keep the document walkers.
 */

const PREFIX = 'sealed:v0:';

const keyOf = (config: TConfig) => createHash('sha256').update(`flow-secrets:${config.jwtSecret}`).digest();

export const sealSecret = (config: TConfig, plain: string) => {
  if (!plain) return '';
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);

  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
};

export const openSecret = (config: TConfig, stored: string) => {
  if (!stored?.startsWith(PREFIX)) return stored ?? '';
  try {
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', keyOf(config), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));

    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return '';
  }
};

export const maskSecret = (plain: string) => (plain ? `••••••••${plain.slice(-4)}` : '');

/* ---------------------------------------------------------------- document walkers */

export const FLOW_SECRET_FIELDS = ['apiKey', 'voiceKey'] as const;

type TNodeLike = { id?: unknown; type?: unknown; data?: { typebotIntegration?: Record<string, unknown> } };

const secretHolders = (doc: { nodes: unknown[] } | null | undefined) =>
  (doc?.nodes ?? []).flatMap((n) => {
    const node = n as TNodeLike;
    const settings = node.type === 'openai' ? node.data?.typebotIntegration : undefined;

    return settings && typeof settings === 'object' ? [{ id: String(node.id), settings }] : [];
  });

/**
 * the document to store: each secret sealed; a value equal to the mask of the stored one (same node id)
 * keeps the stored sealed value
 */
export const sealDocument = (config: TConfig, incoming: TFlowDocument, stored: TFlowDocument | null): TFlowDocument => {
  const doc = structuredClone(incoming);
  const before = new Map(secretHolders(stored).map((h) => [h.id, h.settings]));
  for (const { id, settings } of secretHolders(doc)) {
    for (const field of FLOW_SECRET_FIELDS) {
      const value = settings[field];
      if (typeof value !== 'string' || value === '') continue;
      const old = before.get(id)?.[field];
      const oldPlain = typeof old === 'string' ? openSecret(config, old) : '';
      settings[field] = oldPlain && value === maskSecret(oldPlain) ? old : sealSecret(config, value);
    }
  }

  return doc;
};

/** the document to answer: each secret masked */
export const maskDocument = (config: TConfig, stored: TFlowDocument | null): TFlowDocument | null => {
  if (!stored) return null;
  const doc = structuredClone(stored);
  for (const { settings } of secretHolders(doc)) {
    for (const field of FLOW_SECRET_FIELDS) {
      const value = settings[field];
      if (typeof value === 'string' && value) settings[field] = maskSecret(openSecret(config, value));
    }
  }

  return doc;
};

/** an OpenAI node's settings with its secrets opened, for the call */
export const openSettings = <T extends Record<string, unknown>>(config: TConfig, settings: T): T => {
  const open = { ...settings } as Record<string, unknown>;
  for (const field of FLOW_SECRET_FIELDS) {
    const value = open[field];
    if (typeof value === 'string' && value) open[field] = openSecret(config, value);
  }

  return open as T;
};
