import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../../http/authenticate';

/** the rate limit's bucket of an external API request: one per token, by its hash (the limiter keeps no secret) */
export const tokenBucket = (request: FastifyRequest) => {
  const token = bearerToken(request);

  return token ? `api|${createHash('sha256').update(token, 'utf8').digest('hex').slice(0, 32)}` : undefined;
};
