import { beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Agents read the app in their language: no en or es text is left as the Portuguese one (the spec's fixed
 * Portuguese texts are the pt values and are translated like any other).
 */
beforeAll(() => {
  vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
});

/** words the same in every language: names of languages, brands, a code the user copies */
const SAME_EVERYWHERE = new Set(['Português (BR)']);
const PORTUGUESE = /[ãõçâêô]|\b(não|você|sucesso|usuário|conexão|mensagem|observação)\b/i;

const leaves = (value: unknown, path: string[] = []): [string, string][] =>
  typeof value === 'string'
    ? [[path.join('.'), value]]
    : Object.entries((value ?? {}) as Record<string, unknown>).flatMap(([k, v]) => leaves(v, [...path, k]));

describe('translations', { timeout: 30_000 }, () => {
  it('no English or Spanish text is Portuguese', async () => {
    const { i18n } = await import('./index');
    // Portuguese and Spanish are fetched when chosen (index.ts)
    await Promise.all(['pt', 'es'].map((lng) => i18n.loadLanguage(lng)));
    await Promise.all(Object.values(import.meta.glob('../features/*/i18n.ts')).map((load) => load()));
    const pt = new Map(leaves(i18n.getResourceBundle('pt', 'translation')));
    expect(pt.size).toBeGreaterThan(500);
    for (const lng of ['en', 'es']) {
      const left = leaves(i18n.getResourceBundle(lng, 'translation')).filter(
        ([key, text]) => text === pt.get(key) && PORTUGUESE.test(text) && !SAME_EVERYWHERE.has(text),
      );
      expect(left, lng).toEqual([]);
    }
  });

  it('says every validation code the API answers in words, in pt, en and es (never the raw key)', async () => {
    const { V } = await import('@zelo/shared');
    const { i18n } = await import('./index');
    await Promise.all(['pt', 'es'].map((lng) => i18n.loadLanguage(lng)));
    for (const lng of ['pt', 'en', 'es']) {
      for (const code of Object.values(V)) {
        expect(i18n.exists(`validation.${code}`, { lng }), `${lng} ${code}`).toBe(true);
      }
    }
  });
});
