import { MESSAGE_BODY_MAX } from '@zelo/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { stubLocalStorage } from '../../testing/renderScreen';
import { composerLimit, composerLimitText, keepsTextAfter } from './composerLimit';

beforeAll(() => stubLocalStorage());

describe('the composer’s length limit, told before sending', () => {
  it('counts what would be sent (trimmed, signed) against the server’s limit', () => {
    expect(composerLimit('  oi  ', 'Ana', false)).toEqual({
      count: 2,
      max: MESSAGE_BODY_MAX,
      warn: false,
      over: false,
    });
    // the signature "*Ana:*\n" counts too
    expect(composerLimit('oi', 'Ana', true).count).toBe(9);
    expect(composerLimit('x'.repeat(89), '', false, 100)).toMatchObject({ warn: false, over: false });
    expect(composerLimit('x'.repeat(90), '', false, 100)).toMatchObject({ warn: true, over: false });
    expect(composerLimit('x'.repeat(100), '', false, 100)).toMatchObject({ warn: true, over: false });
    expect(composerLimit('x'.repeat(95), 'Ana', true, 100)).toMatchObject({ count: 102, over: true });
    expect(composerLimit('x'.repeat(MESSAGE_BODY_MAX + 1), '', false).over).toBe(true);
  });

  it('gives the text back after a refusal for what it holds, not after a delivery failure', () => {
    expect(keepsTextAfter(400)).toBe(true);
    expect(keepsTextAfter(413)).toBe(true);
    expect(keepsTextAfter(500)).toBe(false);
    expect(keepsTextAfter(undefined)).toBe(false);
  });

  it('says the count near the limit and what to do over it, in pt, en and es', async () => {
    const { i18n } = await import('../../i18n');
    await import('./i18n');
    for (const lang of ['pt', 'en', 'es'] as const) {
      await i18n.changeLanguage(lang);
      const t = i18n.t.bind(i18n) as never;
      const near = composerLimitText(t, { count: 95, max: 100, warn: true, over: false });
      const over = composerLimitText(t, { count: 102, max: 100, warn: true, over: true });
      expect(near, lang).toMatch(/^95 \/ 100 /);
      expect(over, lang).toContain('102');
      expect(over, lang).toContain('100');
      expect(over, lang).not.toContain('tickets.composer');
    }
  });
});
