import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString, Logger } from 'pino';

/**
 * Fastify's per-request logger (`request.log`, `reply.log`), made when the request first logs at an enabled level.
 * Fastify makes a pino child with the request's id for every request; pino writes a child's bindings through the
 * redaction at once (lib/logger.ts: ~110 paths), 3–4 % of the server's time under the lists' load (issue 23,
 * BENCHMARKS.md) for requests that never log. This one logs exactly as that child would: same bindings, same
 * level, same lines.
 */
class RequestLogger {
  #parent: Logger;
  #bindings: Bindings;
  #options: ChildLoggerOptions;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** the pino child, made on first use */
  #real(): Logger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #log(level: Level, args: unknown[]) {
    if (!(this.#child ?? this.#parent).isLevelEnabled(level)) return;
    const real = this.#real();
    (real[level] as (...a: unknown[]) => void).apply(real, args);
  }

  fatal(...args: unknown[]) {
    this.#log('fatal', args);
  }

  error(...args: unknown[]) {
    this.#log('error', args);
  }

  warn(...args: unknown[]) {
    this.#log('warn', args);
  }

  info(...args: unknown[]) {
    this.#log('info', args);
  }

  debug(...args: unknown[]) {
    this.#log('debug', args);
  }

  trace(...args: unknown[]) {
    this.#log('trace', args);
  }

  silent() {}

  get level(): LevelWithSilentOrString {
    return (this.#child ?? this.#parent).level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#real().level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString) {
    return (this.#child ?? this.#parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.#child ? this.#child.bindings() : { ...this.#parent.bindings(), ...this.#bindings };
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.#real().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a request logger made on first use (a route with its own log level: at once) */
export const requestLoggerFactory = (
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger => {
  const logger = parent as unknown as Logger;
  if (Object.keys(options).length > 0) return logger.child(bindings, options);

  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
};
