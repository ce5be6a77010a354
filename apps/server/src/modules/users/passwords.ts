import { randomBytes } from 'node:crypto';

/** bcrypt's cost: PASSWORD_HASH_ROUNDS (config.ts), 10 unless set (the test servers use 4: 64× cheaper) */
export const DEFAULT_PASSWORD_ROUNDS = 10;
let rounds = DEFAULT_PASSWORD_ROUNDS;
let dummy: Promise<string> | undefined;
/** the cost of the hashes made from now on (hashes already stored keep theirs: bcrypt reads it from the hash) */
export const usePasswordRounds = (n: number) => {
  if (n === rounds) return;
  rounds = n;
  dummy = undefined;
};

type TBcrypt = {
  hash: (password: string, rounds: number) => Promise<string>;
  compare: (password: string, hash: string) => Promise<boolean>;
};

/**
 * The native `bcrypt` (its prebuilt binary ships in the npm package) hashes on libuv's thread pool, so
 * a login neither blocks the event loop nor waits for one core; `bcryptjs` (pure JavaScript, same
 * hashes: $2a$/$2b$) is the fallback where the binary does not load. Loaded on the first use.
 */
let library: Promise<TBcrypt> | undefined;
const bcrypt = () => {
  library ??= import('bcrypt')
    .then(({ default: native }) => native as TBcrypt)
    .catch(() => import('bcryptjs').then(({ default: js }) => js as TBcrypt));

  return library;
};

export const hashPassword = async (password: string) => (await bcrypt()).hash(password, rounds);
export const verifyPassword = async (password: string, hash: string) => (await bcrypt()).compare(password, hash);

/**
 * Compared against when the e-mail is unknown, so both answers take the same time. A fixed cost-10
 * hash of a random, discarded password: nothing to compute at start, and no password matches it.
 */
export const DUMMY_HASH = '$2b$10$9DNhBnqIHkWbe9ITVHQRteMN06ti.2hxeci5vP5ztVWpzNhqEJ9U2';

/** DUMMY_HASH at the cost in use: made once (a random, discarded password) when the cost is not 10 */
export const dummyHash = (): Promise<string> => {
  if (rounds === DEFAULT_PASSWORD_ROUNDS) return Promise.resolve(DUMMY_HASH);
  dummy ??= hashPassword(randomBytes(18).toString('base64'));

  return dummy;
};
