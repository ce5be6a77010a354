import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubLocalStorage } from '../testing/renderScreen';
import { MediaAttachment, shownAttachment } from './MediaAttachment';

beforeAll(async () => {
  stubLocalStorage();
  await import('../i18n');
  await import('../features/campaigns/i18n');
});

const stored = { mediaPath: 'x/ab.png', mediaName: 'promo.png' };
const render = (props: Partial<Parameters<typeof MediaAttachment>[0]>) =>
  renderToString(
    <MediaAttachment
      record={stored}
      change={{ kind: 'keep' }}
      onChange={() => undefined}
      i18nPrefix="campaigns.dialog"
      testId="campaign"
      {...props}
    />,
  );

describe('MediaAttachment (campaign, schedule and quick message dialogs)', () => {
  it('shows the chosen file, else the stored one unless it is being removed', () => {
    expect(shownAttachment(stored, { kind: 'keep' })).toBe('promo.png');
    expect(shownAttachment(stored, { kind: 'attach', file: new File(['x'], 'new.jpg') })).toBe('new.jpg');
    expect(shownAttachment(stored, { kind: 'remove' })).toBeNull();
    expect(shownAttachment({ mediaPath: null, mediaName: null }, { kind: 'keep' })).toBeNull();
    expect(shownAttachment(null, { kind: 'keep' })).toBeNull();
  });

  it('a stored file: its name, remove and replace; the test ids under the dialog’s prefix', () => {
    const html = render({});
    expect(html).toContain('promo.png');
    for (const id of ['campaign-file-input', 'campaign-attachment', 'campaign-remove-attachment', 'campaign-attach']) {
      expect(html, id).toContain(`data-testid="${id}"`);
    }
    expect(html).toContain('Replace file');
  });

  it('no file: only attach; read-only: the name without buttons', () => {
    const empty = render({ record: null });
    expect(empty).not.toContain('data-testid="campaign-attachment"');
    expect(empty).toContain('data-testid="campaign-attach"');
    const locked = render({ readOnly: true });
    expect(locked).toContain('promo.png');
    expect(locked).not.toContain('data-testid="campaign-attach"');
    expect(locked).not.toContain('data-testid="campaign-remove-attachment"');
  });
});
