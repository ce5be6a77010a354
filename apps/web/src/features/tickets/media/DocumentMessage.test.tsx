import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubLocalStorage } from '../../../testing/renderScreen';

/** Server-side render (no DOM) of a document in the conversation's bubble. */
beforeAll(() => stubLocalStorage());

describe('a document in the conversation', () => {
  it('keeps its download chip clear of the message menu’s chevron (top right of the bubble)', async () => {
    await import('../../../i18n');
    const { DocumentMessage } = await import('./DocumentMessage');
    const html = renderToString(<DocumentMessage url="/public/company1/boleto.pdf" name="boleto.pdf" />);
    expect(html).toContain('data-testid="message-document"');
    // the chevron is a 24 px button at right: 0; the chip keeps 28 px free on its right
    expect(html).toMatch(/margin-right:28px/);
  });
});
