import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * The server's one logger (main.ts, the test harness; Fastify, the drivers, the jobs and Baileys log through
 * it or its children, which inherit all of this). No secret reaches a log line (issue 20 item 4):
 *
 * - `redact`: fields that hold secrets by name (authorization and cookie headers, passwords, tokens, keys,
 *   the Cloud API and webhook secrets…) are replaced wherever a log object carries them, up to three levels
 *   deep (pino's paths have no "any depth" wildcard).
 * - `err`: an error is logged by its type, code and where it was thrown, never with the values of a query.
 *   A database error (Drizzle's `DrizzleQueryError` carries the SQL and its `params`, its message repeats
 *   them, PostgreSQL's `detail` names the row's values) keeps its SQLSTATE code, constraint, table, column
 *   and the query's name (`insert into "whatsapps"`) and nothing else.
 * - `req`: the URL without its query string (`?token=` of the socket handshake, `hub.verify_token`).
 */

const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-hub-signature-256',
  'asaas-access-token',
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'tokenHash',
  'accessToken',
  'access_token',
  'refreshToken',
  'appSecret',
  'verifyToken',
  'secret',
  'apiKey',
  'voiceKey',
  'channelSecret',
  'signingSecret',
  'webhookSecret',
  'jsonContent',
  'private_key',
  'privateKey',
  'client_secret',
  'params',
];

const quoted = (field: string) => (/^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `["${field}"]`);

/** each field at the top of a log object and one, two and three levels down */
export const REDACT_PATHS = SECRET_FIELDS.flatMap((field) =>
  ['', '*', '*.*', '*.*.*'].map((prefix) => `${prefix}${quoted(field)}`.replace(/^\./, '')),
);

export const REDACTED = '[redacted]';

type TLoggedError = Record<string, unknown>;

/** the pg / PGlite error fields that name things, never values */
const DB_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'routine'] as const;

const isSqlState = (code: unknown) => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);

/** `insert into "whatsapps"`, `select … from "tickets"`: what a statement does to which table, no values */
export const queryName = (sqlText: unknown) => {
  if (typeof sqlText !== 'string') return undefined;
  const verb = /^\s*(with|select|insert|update|delete)\b/i.exec(sqlText)?.[1]?.toLowerCase() ?? 'sql';
  const table = /\b(?:from|into|update)\s+("[^"]+"|\w+)/i.exec(sqlText)?.[1];

  return table ? `${verb} ${table}` : verb;
};

/** the stack's frames alone (the first lines repeat the message, which may hold values) */
const framesOf = (stack: unknown) =>
  typeof stack === 'string' ? stack.slice(Math.max(0, stack.indexOf('\n    at '))).trimStart() : undefined;

const serializeError = (err: unknown, depth = 0): TLoggedError | unknown => {
  if (!(err instanceof Error) && (typeof err !== 'object' || err === null)) return err;
  const e = err as Error & Record<string, unknown>;
  const type = e.constructor?.name ?? 'Error';
  const isQueryError = typeof e.query === 'string' && 'params' in e;
  const isDbError = isQueryError || (isSqlState(e.code) && ('severity' in e || 'routine' in e));
  const out: TLoggedError = { type };
  if (isDbError) {
    out.message = isQueryError ? 'Failed query' : 'Database error';
    // Drizzle's wrapper carries the driver's error as its cause: its code and constraint shown at the top
    const cause = (isQueryError && typeof e.cause === 'object' && e.cause ? e.cause : {}) as Record<string, unknown>;
    for (const field of DB_FIELDS) {
      const value = e[field] ?? cause[field];
      if (value !== undefined && typeof value !== 'object') out[field] = value;
    }
    if (isQueryError) out.query = queryName(e.query);
    out.stack = framesOf(e.stack);
  } else {
    out.message = e.message;
    for (const field of ['code', 'statusCode', 'status', 'errno', 'syscall'] as const) {
      if (e[field] !== undefined && typeof e[field] !== 'object') out[field] = e[field];
    }
    out.stack = e.stack;
  }
  if (e.cause !== undefined && depth < 3) out.cause = serializeError(e.cause, depth + 1);

  return out;
};

/** the `err` serializer of every logger (exported for the tests of what a failure logs) */
export const errSerializer = (err: unknown) => serializeError(err);

const reqSerializer = (req: { method?: string; url?: string; ip?: string; host?: string }) => ({
  method: req.method,
  url: typeof req.url === 'string' ? req.url.split('?')[0] : undefined,
  host: req.host,
  remoteAddress: req.ip,
});

export const createLogger = (opts: { level: string; destination?: DestinationStream }): Logger =>
  pino(
    {
      level: opts.level,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      serializers: { err: errSerializer, error: errSerializer, req: reqSerializer },
    },
    opts.destination,
  );
