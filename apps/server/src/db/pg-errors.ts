/**
 * What PostgreSQL (or PGlite) said about a failed statement, read through the wrappers around it (drizzle's
 * `DrizzleQueryError` keeps the driver's error as `cause`, a transaction may wrap it again): its SQLSTATE and
 * the constraint it names. Only those — never the statement or its parameters, which may hold secrets.
 */

export type TPgError = { code: string; constraint?: string };

/** a SQLSTATE: five digits or capitals, at least one digit (a Node system code such as EPIPE is not one) */
const SQLSTATE = /^(?=.*\d)[0-9A-Z]{5}$/;

export const pgErrorOf = (err: unknown): TPgError | undefined => {
  let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth += 1) {
    if (typeof e.code === 'string' && SQLSTATE.test(e.code)) {
      return { code: e.code, constraint: typeof e.constraint === 'string' ? e.constraint : undefined };
    }
    e = e.cause as typeof e;
  }

  return undefined;
};

/** a unique violation (23505), of `constraint` when one is named */
export const isUniqueViolation = (err: unknown, constraint?: string) => {
  const pg = pgErrorOf(err);

  return pg?.code === '23505' && (!constraint || pg.constraint === constraint);
};
