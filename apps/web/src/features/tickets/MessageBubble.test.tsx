import { beforeAll, describe, expect, it } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';
import { makeMessage } from './testFixtures';

beforeAll(async () => {
  stubLocalStorage();
  await import('../../i18n');
});

const noop = () => undefined;
const render = async (showSender: boolean, fromMe = false) => {
  const { MessageBubble } = await import('./MessageBubble');
  const message = makeMessage(7, { fromMe, body: 'Bom dia, grupo', contact: { id: 31, name: 'Joana Lima' } });

  return renderScreen(
    <MessageBubble
      message={message}
      showSender={showSender}
      onReply={noop}
      onDelete={noop}
      onEdit={noop}
      onRetry={noop}
    />,
    { path: '/tickets' },
  );
};

describe('a message in a group conversation', () => {
  it("names the member who wrote it, in the member's own colour", async () => {
    const { senderColour } = await import('./MessageBubble');
    const html = await render(true);
    expect(html).toContain('data-testid="message-sender-7"');
    expect(html).toContain('Joana Lima');
    expect(senderColour('Joana Lima')).toBe(senderColour('Joana Lima'));
  });

  it('names nobody in a one-to-one conversation or on the own messages', async () => {
    expect(await render(false)).not.toContain('message-sender-7');
    expect(await render(true, true)).not.toContain('message-sender-7');
  });
});
