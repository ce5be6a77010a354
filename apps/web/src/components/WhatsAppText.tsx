import { Box } from '@mui/material';
import { type ReactNode, useMemo } from 'react';
import { parseWhatsAppText, type TFormatNode } from './whatsappFormat';

const monoFont = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

const render = (nodes: TFormatNode[], path: string): ReactNode[] =>
  nodes.map((node, index) => {
    const key = `${path}.${index}`;
    if (typeof node === 'string') {
      return node;
    }
    switch (node.kind) {
      case 'bold':
        return <strong key={key}>{render(node.children, key)}</strong>;
      case 'italic':
        return <em key={key}>{render(node.children, key)}</em>;
      case 'strike':
        return <s key={key}>{render(node.children, key)}</s>;
      case 'mono':
        return (
          <Box key={key} component="span" sx={{ fontFamily: monoFont, fontSize: '0.92em' }}>
            {node.children.join('')}
          </Box>
        );
      default:
        return (
          <Box
            key={key}
            component="code"
            sx={{ fontFamily: monoFont, fontSize: '0.92em', bgcolor: 'action.hover', borderRadius: 0.5, px: 0.5 }}
          >
            {node.children.join('')}
          </Box>
        );
    }
  });

/**
 * A message text with WhatsApp's formatting (*bold*, _italic_, ~strike~, ```mono```, `code`), rendered as
 * React elements: the text is never parsed as HTML. Line breaks are kept by the caller's `white-space`.
 */
export const WhatsAppText = ({ text }: { text: string }) => {
  const nodes = useMemo(() => parseWhatsAppText(text), [text]);

  return <>{render(nodes, 'f')}</>;
};
