/**
 * The external messages API's connection tokens (issue 20 item 5): made by `generateApiToken` (32 characters
 * of a 64-letter url-safe alphabet: 192 random bits) or typed by an admin, who is held to the same
 * strength by `isStrongApiToken`. Shared by the server (which refuses a weak one with
 * ERR_WAPP_TOKEN_WEAK) and the web editor (its Generate button and its message before saving).
 */
export const API_TOKEN_MIN_LENGTH = 32;
export const API_TOKEN_MAX_LENGTH = 200;
/** the bits a typed token must be worth at least, as estimated below */
const MIN_BITS = 128;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** the longest run of one character repeated, or of neighbouring characters going up or down (`abcde`) */
const longestRun = (token: string) => {
  let longest = 1;
  let same = 1;
  let up = 1;
  let down = 1;
  for (let i = 1; i < token.length; i += 1) {
    const step = token.charCodeAt(i) - token.charCodeAt(i - 1);
    same = step === 0 ? same + 1 : 1;
    up = step === 1 ? up + 1 : 1;
    down = step === -1 ? down + 1 : 1;
    longest = Math.max(longest, same, up, down);
  }

  return longest;
};

/** the letters a guesser would have to try per position, from the kinds of characters the token uses */
const poolSize = (token: string) =>
  (/[a-z]/.test(token) ? 26 : 0) +
  (/[A-Z]/.test(token) ? 26 : 0) +
  (/[0-9]/.test(token) ? 10 : 0) +
  (/[^a-zA-Z0-9]/.test(token) ? 32 : 0);

/**
 * Strong enough to stand for a generated token: 32–200 visible ASCII characters (no spaces), worth at
 * least 128 bits by length × log2(pool), at least 10 different characters and no run of 5 repeated or
 * consecutive ones (`aaaaa`, `12345`). A generated token always passes.
 */
export const isStrongApiToken = (token: string) =>
  token.length >= API_TOKEN_MIN_LENGTH &&
  token.length <= API_TOKEN_MAX_LENGTH &&
  /^[\x21-\x7e]+$/.test(token) &&
  token.length * Math.log2(poolSize(token)) >= MIN_BITS &&
  new Set(token).size >= 10 &&
  longestRun(token) < 5;

/** a new token from the platform's CSPRNG (Web Crypto: the server and the browser alike) */
export const generateApiToken = (): string => {
  for (;;) {
    const bytes = new Uint8Array(API_TOKEN_MIN_LENGTH);
    globalThis.crypto.getRandomValues(bytes);
    // 256 is a multiple of 64: every letter is equally likely
    const token = Array.from(bytes, (b) => ALPHABET[b & 63]).join('');
    // a draw that a typed token could not be (5 repeated letters: about once in 10^6) is drawn again
    if (isStrongApiToken(token)) return token;
  }
};
