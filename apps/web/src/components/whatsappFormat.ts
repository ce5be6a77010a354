/**
 * WhatsApp's text formatting, parsed into a tree the UI renders as elements (never as HTML):
 * `*bold*`, `_italic_`, `~strike~`, ```` ```monospace``` ```` and `` `inline code` ``. Like WhatsApp, a marker
 * opens only at the start of the text or after a space or punctuation and before a non-space, and closes
 * before the end of the text or a space or punctuation, after a non-space, on the same line (monospace
 * blocks may span lines). Styles nest (`*_both_*`); code is taken literally.
 */

export type TFormatKind = 'bold' | 'italic' | 'strike' | 'mono' | 'code';

export type TFormatNode = string | { kind: TFormatKind; children: TFormatNode[] };

const STYLE_MARKERS: Record<string, TFormatKind> = { '*': 'bold', _: 'italic', '~': 'strike' };

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** a marker may open at i when nothing word-like is glued before it and a non-space follows */
const canOpen = (text: string, i: number, length: number) =>
  !isWordChar(text[i - 1]) && !isSpace(text[i + length]) && text[i + length] !== text[i];

/** a marker may close at j when a non-space precedes it and nothing word-like is glued after it */
const canClose = (text: string, j: number, length: number) => !isSpace(text[j - 1]) && !isWordChar(text[j + length]);

const findClose = (text: string, marker: string, from: number, multiline: boolean): number => {
  for (let j = from; j < text.length; j++) {
    if (!multiline && text[j] === '\n') {
      return -1;
    }
    if (text.startsWith(marker, j) && canClose(text, j, marker.length)) {
      return j;
    }
  }

  return -1;
};

const pushText = (nodes: TFormatNode[], text: string) => {
  if (!text) {
    return;
  }
  const last = nodes[nodes.length - 1];
  if (typeof last === 'string') {
    nodes[nodes.length - 1] = last + text;
  } else {
    nodes.push(text);
  }
};

export const parseWhatsAppText = (text: string): TFormatNode[] => {
  const nodes: TFormatNode[] = [];
  let plainStart = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    let matched: { kind: TFormatKind; inner: string; end: number } | null = null;
    if (text.startsWith('```', i) && canOpen(text, i, 3)) {
      const close = findClose(text, '```', i + 4, true);
      if (close > i + 3) {
        matched = { kind: 'mono', inner: text.slice(i + 3, close), end: close + 3 };
      }
    } else if (c === '`' && canOpen(text, i, 1)) {
      const close = findClose(text, '`', i + 2, false);
      if (close > i + 1) {
        matched = { kind: 'code', inner: text.slice(i + 1, close), end: close + 1 };
      }
    } else if (STYLE_MARKERS[c] && canOpen(text, i, 1)) {
      const close = findClose(text, c, i + 2, false);
      if (close > i + 1) {
        matched = { kind: STYLE_MARKERS[c], inner: text.slice(i + 1, close), end: close + 1 };
      }
    }
    if (!matched) {
      i += 1;
      continue;
    }
    pushText(nodes, text.slice(plainStart, i));
    const literal = matched.kind === 'mono' || matched.kind === 'code';
    nodes.push({ kind: matched.kind, children: literal ? [matched.inner] : parseWhatsAppText(matched.inner) });
    i = matched.end;
    plainStart = i;
  }
  pushText(nodes, text.slice(plainStart));

  return nodes;
};

/** the text without its markers (previews, notifications) */
export const stripWhatsAppFormat = (text: string): string =>
  parseWhatsAppText(text)
    .map(function flat(node: TFormatNode): string {
      return typeof node === 'string' ? node : node.children.map(flat).join('');
    })
    .join('');
