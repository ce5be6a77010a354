import type { TConfig } from '../../config';
import type { TFlowDocument } from '../../db/schema/automation';
import { assertSecretRetyped } from '../../lib/secret-retype';
import { isMaskedSecret, keepOrSeal, maskStoredSecret, openSecret } from '../../lib/secrets';

/**
 * Secrets inside a flow document: the OpenAI node's `apiKey` and `voiceKey` (under `data.typebotIntegration`)
 * are sealed at rest (lib/secrets.ts, ZELO_SECRET_KEY), masked on every load, and a masked value sent back
 * keeps the stored one (of the node with the same id) — the `apiKey` only while the node's `baseUrl` stays
 * the same: a node moved to another base URL needs its key typed again (ERR_SECRET_RETYPE_REQUIRED).
 */

/** a stored value opened; a value that does not open (another key, tampered) reads as none */
const opened = (stored: string) => {
  try {
    return openSecret(stored);
  } catch {
    return '';
  }
};

/* ---------------------------------------------------------------- document walkers */

export const FLOW_SECRET_FIELDS = ['apiKey', 'voiceKey'] as const;

type TNodeLike = { id?: unknown; type?: unknown; data?: { typebotIntegration?: Record<string, unknown> } };

const secretHolders = (doc: { nodes: unknown[] } | null | undefined) =>
  (doc?.nodes ?? []).flatMap((n, index) => {
    const node = n as TNodeLike;
    const settings = node.type === 'openai' ? node.data?.typebotIntegration : undefined;

    return settings && typeof settings === 'object' ? [{ id: String(node.id), index, settings }] : [];
  });

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * the document to store: each secret sealed; a value equal to the mask of the stored one (same node id)
 * keeps the stored sealed value
 */
export const sealDocument = (
  _config: TConfig,
  incoming: TFlowDocument,
  stored: TFlowDocument | null,
): TFlowDocument => {
  const doc = structuredClone(incoming);
  const before = new Map(secretHolders(stored).map((h) => [h.id, h.settings]));
  for (const { id, index, settings } of secretHolders(doc)) {
    const previous = before.get(id);
    assertSecretRetyped({
      before: text(previous?.baseUrl),
      after: text(settings.baseUrl),
      hasStored: text(previous?.apiKey) !== '',
      keepsStored: isMaskedSecret(settings.apiKey),
      path: `nodes.${index}.data.typebotIntegration.apiKey`,
    });
    for (const field of FLOW_SECRET_FIELDS) {
      const value = settings[field];
      if (typeof value !== 'string' || value === '') continue;
      const old = previous?.[field];
      settings[field] = keepOrSeal(value, typeof old === 'string' ? old : '');
    }
  }

  return doc;
};

/** the document to answer: each secret masked */
export const maskDocument = (_config: TConfig, stored: TFlowDocument | null): TFlowDocument | null => {
  if (!stored) return null;
  const doc = structuredClone(stored);
  for (const { settings } of secretHolders(doc)) {
    for (const field of FLOW_SECRET_FIELDS) {
      const value = settings[field];
      if (typeof value === 'string' && value) settings[field] = maskStoredSecret(value);
    }
  }

  return doc;
};

/** an OpenAI node's settings with its secrets opened, for the call */
export const openSettings = <T extends Record<string, unknown>>(_config: TConfig, settings: T): T => {
  const open = { ...settings } as Record<string, unknown>;
  for (const field of FLOW_SECRET_FIELDS) {
    const value = open[field];
    if (typeof value === 'string' && value) open[field] = opened(value);
  }

  return open as T;
};
