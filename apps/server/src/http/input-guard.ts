import { V } from '@zelo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, type TErrorDetail } from './errors';

/** a UTF-16 half without its other half: JSON may carry one (`"\ud800"`), no text may hold one */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** text no column can store: NUL (PostgreSQL refuses it) or a lone surrogate (not a character at all) */
export const isUnstorableText = (text: string) => text.includes('\0') || LONE_SURROGATE.test(text);

/**
 * The first string (value or key) of a parsed input that holds unstorable text, as a detail path.
 * Iterative, so a deeply nested body cannot exhaust the stack.
 */
export const findUnstorableText = (input: unknown, root: string): TErrorDetail | undefined => {
  const stack: { value: unknown; path: string }[] = [{ value: input, path: root }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (isUnstorableText(value)) return { path, message: V.invalidCharacter };
      continue;
    }
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      const childPath = path === root ? key : `${path}.${key}`;
      if (isUnstorableText(key)) return { path: childPath, message: V.invalidCharacter };
      stack.push({ value: child, path: childPath });
    }
  }

  return undefined;
};

const checkRequest = async (request: FastifyRequest) => {
  const found =
    findUnstorableText(request.params, 'params') ??
    findUnstorableText(request.query, 'query') ??
    (request.routeOptions.config.decl?.channelText ? undefined : findUnstorableText(request.body, 'body'));
  if (found) throw new AppError('ERR_VALIDATION', 'Invalid character in the request', [found]);
};

/**
 * Every route's path parameters, query string and parsed body are checked before validation: a NUL or a
 * lone surrogate answers 400 `ERR_VALIDATION` instead of reaching the database (except in the body of a
 * route declared `channelText`). Multipart fields are checked where they are read (http/multipart.ts).
 */
export const installInputGuard = (app: FastifyInstance) => {
  app.addHook('preValidation', checkRequest);
};
