import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';

/** Server-side render (no DOM) of a document in the simulator's bubble. */
beforeAll(() => {
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
});

describe('the simulator’s document bubble', () => {
  it('puts the file name and its type on lines of their own', async () => {
    const { MediaView } = await import('./MessageBubble');
    for (const dataUrl of ['data:application/pdf;base64,JVBERi0=', undefined]) {
      const html = renderToString(
        <MediaView mimetype="application/pdf" dataUrl={dataUrl} fileName="orcamento.pdf" size={2048} />,
      );
      // the type is a block (a div) after the name, never an inline run joined to it
      expect(html).toMatch(/data-testid="sim-file-name"[^>]*>orcamento\.pdf<\/(a|p)>/);
      expect(html).toMatch(/<div[^>]*data-testid="sim-file-type"[^>]*>application\/pdf · 2\.0 KB<\/div>/);
      expect(html).not.toContain('orcamento.pdf</a><span');
    }
  });
});
