const ROUNDS = 10;

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

export const hashPassword = async (password: string) => (await bcrypt()).hash(password, ROUNDS);
export const verifyPassword = async (password: string, hash: string) => (await bcrypt()).compare(password, hash);

/**
 * Compared against when the e-mail is unknown, so both answers take the same time. A fixed cost-10
 * hash of a random, discarded password: nothing to compute at start, and no password matches it.
 */
export const DUMMY_HASH = '$2b$10$9DNhBnqIHkWbe9ITVHQRteMN06ti.2hxeci5vP5ztVWpzNhqEJ9U2';
