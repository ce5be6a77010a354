/**
 * Where the emoji picker reads its Emojibase data: our own origin, never a CDN (the app runs offline under CSP
 * `connect-src 'self'`). The web build copies `emojibase-data/<language>/{data,messages}.json` there for pt, en
 * and es, with .br and .gz beside them (apps/web/emojibase.ts); the server sends the compressed ones.
 * No imports here: the Vite plugin reads this file too.
 */
export const EMOJIBASE_PATH = '/emojibase';

/** the files frimousse asks for: `${EMOJIBASE_PATH}/${locale}/${file}` */
export const EMOJIBASE_FILES = ['data.json', 'messages.json'] as const;

/** Emojibase's groups by their order (frimousse's category index); 2 (skin-tone components) is never listed */
export const EMOJI_GROUP_KEYS = [
  'smileys',
  'people',
  'components',
  'nature',
  'food',
  'travel',
  'activities',
  'objects',
  'symbols',
  'flags',
] as const;
