import fastifyMultipart, { type FastifyMultipartOptions } from '@fastify/multipart';
import { V } from '@zelo/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/** RFC 2046: a boundary is 1 to 70 characters, quoted or not */
const BOUNDARY = /;\s*boundary=(?:"[^"]{1,70}"|[^\s;"]{1,70})(?:[\s;]|$)/i;

const malformed = (message: string) => new AppError('ERR_VALIDATION', message, [{ path: 'body', message: V.invalid }]);

/**
 * Multipart parsing for one scope's routes: the plugin (unless the server already parses multipart) and a
 * check that a multipart request names its boundary, which the parser would otherwise fail on with no status.
 */
export const registerMultipart = async (scope: FastifyInstance, options: FastifyMultipartOptions = {}) => {
  if (!scope.hasContentTypeParser('multipart/form-data')) await scope.register(fastifyMultipart, options);
  scope.addHook('preValidation', async (request) => {
    if (request.isMultipart() && !BOUNDARY.test(request.headers['content-type'] ?? '')) {
      throw malformed('A multipart body needs a boundary');
    }
  });
};

/**
 * Runs a route's reading of its multipart parts: what the parser throws without a status (a part cut
 * short, a malformed header, a boundary it cannot search for) is the client's malformed body, 400.
 * Catalogue errors and the plugin's own (limits 413, prototype keys 400) pass as they are.
 */
export const readingMultipart = async <T>(read: () => Promise<T>): Promise<T> => {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError || typeof (err as { statusCode?: unknown }).statusCode === 'number') throw err;
    throw malformed('Malformed multipart body');
  }
};
