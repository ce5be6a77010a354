import { ZFlowDocument } from '@zelo/shared';
import { fromDocument, type TFlowDocument } from './flowDocument';

/*
 * Importing and exporting a flow as a JSON file: the ancestor's `{nodes, connections}` (what its editor saves),
 * also found wrapped as its GET answer gives it (`{flow: {flow: {...}}}` or `{flow: {...}}`).
 */

/** The document inside what a file holds, or null when there is none. */
const unwrap = (value: unknown): unknown => {
  let current = value;
  for (let i = 0; i < 3; i++) {
    if (current && typeof current === 'object' && 'nodes' in current) {
      return current;
    }
    current = current && typeof current === 'object' ? (current as { flow?: unknown }).flow : undefined;
  }

  return null;
};

/**
 * A file's text as the canvas's document: checked by the shared schema the server saves with (unknown keys kept),
 * or the reason it cannot be imported.
 */
export const parseFlowFile = (text: string): { doc: TFlowDocument } | { error: 'json' | 'shape' } => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'json' };
  }
  const doc = unwrap(value);
  const parsed = ZFlowDocument.safeParse(doc);
  if (!parsed.success || parsed.data.nodes.length === 0) {
    return { error: 'shape' };
  }

  // the file as it is (the check normalises numbers typed as text; the import keeps them as the ancestor wrote them)
  return { doc: fromDocument(doc as TFlowDocument) };
};

/** A file name for the exported flow. */
export const exportFileName = (name: string) =>
  `${
    name
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'fluxo'
  }.json`;
