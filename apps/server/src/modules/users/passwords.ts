import bcrypt from 'bcryptjs';

const ROUNDS = 10;

export const hashPassword = (password: string) => bcrypt.hash(password, ROUNDS);
export const verifyPassword = (password: string, hash: string) => bcrypt.compare(password, hash);

/** compared against when the e-mail is unknown, so both answers take the same time */
export const DUMMY_HASH = bcrypt.hashSync('zelo-dummy-password', ROUNDS);
