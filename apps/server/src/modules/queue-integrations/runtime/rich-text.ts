/**
 * Typebot's rich text (Slate-like trees: `{type?, children?, text?, bold?, italic?, underline?, url?}`) as WhatsApp
 * markup: bold `*x*`, italic `_x_`, underline/strike `~x~`, links as "text (url)"; one line per top-level block.
 */
type TRichNode = {
  type?: string;
  text?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  url?: string;
  children?: TRichNode[];
};

const wrap = (s: string, mark: string) => {
  // markers only around the words: WhatsApp ignores "* x *"
  const m = /^(\s*)(.*?)(\s*)$/s.exec(s);
  if (!m || !m[2]) return s;
  return `${m[1]}${mark}${m[2]}${mark}${m[3]}`;
};

const inline = (node: TRichNode): string => {
  let text = typeof node.text === 'string' ? node.text : (node.children ?? []).map(inline).join('');
  if (node.bold) text = wrap(text, '*');
  if (node.italic) text = wrap(text, '_');
  if (node.underline || node.strikethrough) text = wrap(text, '~');
  if (node.url) text = text && text !== node.url ? `${text} (${node.url})` : node.url;
  return text;
};

export const richTextToWhatsApp = (blocks: unknown): string => {
  if (!Array.isArray(blocks)) return '';
  return blocks
    .map((b) => inline((b ?? {}) as TRichNode))
    .join('\n')
    .replace(/\n+$/, '');
};
