import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheControlOf } from './web-app';

describe('the web app cache headers', () => {
  const dist = join('/srv', 'zelo', 'dist');
  it('keeps hashed build files for a year, immutable, compressed copies included', () => {
    for (const name of [
      'index-DB1pTHL5.js',
      'index-DB1pTHL5.js.br',
      'TicketsPage-CBIPVn6R.js.gz',
      'index-D_ODQ-Pp.css',
    ]) {
      expect(cacheControlOf(join(dist, 'assets', name)), name).toBe('public, max-age=31536000, immutable');
    }
  });
  it('revalidates everything without a content hash', () => {
    for (const path of [
      'index.html',
      'favicon.ico',
      'emojibase/pt/data.json',
      'emojibase/pt/data.json.br',
      'assets/logo.svg',
    ]) {
      expect(cacheControlOf(join(dist, path)), path).toBe('no-cache');
    }
  });
});
