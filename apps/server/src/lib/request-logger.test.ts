import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from './logger';
import { requestLoggerFactory } from './request-logger';

/**
 * `request.log` is made when the request first logs (request-logger.ts): a request that logs writes the same lines
 * a pino child would (the request's id, the redaction, the level), one that does not log makes no child at all.
 */

const lines: Record<string, unknown>[] = [];
let children = 0;
let app: FastifyInstance;

beforeAll(async () => {
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => lines.push(JSON.parse(line)) },
  });
  logger.onChild = () => {
    children += 1;
  };
  app = Fastify({
    loggerInstance: logger,
    childLoggerFactory: requestLoggerFactory,
    disableRequestLogging: true,
  }) as unknown as FastifyInstance;
  app.get('/quiet', async (req) => {
    req.log.debug('below the level');
    req.log.trace({ authorization: 'Bearer quiet' }, 'below the level');

    const log = req.log as unknown as Logger;

    return { level: log.level, enabled: log.isLevelEnabled('info'), bindings: log.bindings() };
  });
  app.get('/speaks', async (req) => {
    req.log.info({ authorization: 'Bearer s3cret', n: 1 }, 'spoke');
    req.log.child({ step: 'deeper' }).warn('and deeper');
    req.log.error(new Error('went wrong'));

    return {};
  });
  app.get('/verbose', { logLevel: 'debug' }, async (req) => {
    req.log.debug('a route of its own level');

    return {};
  });
  await app.ready();
});
afterAll(() => app.close());

describe('the request logger', () => {
  it('makes no child for a request that does not log, and answers as one would', async () => {
    lines.length = 0;
    children = 0;
    const res = await app.inject({ method: 'GET', url: '/quiet' });
    expect(res.json()).toEqual({ level: 'info', enabled: true, bindings: { reqId: expect.any(String) } });
    expect(lines).toEqual([]);
    expect(children).toBe(0);
  });

  it('writes what a pino child writes once the request logs: its id, the redaction, the child’s bindings', async () => {
    lines.length = 0;
    children = 0;
    await app.inject({ method: 'GET', url: '/speaks' });
    const [info, warn, error] = lines;
    expect(info).toMatchObject({ level: 30, msg: 'spoke', n: 1, authorization: REDACTED, reqId: expect.any(String) });
    expect(warn).toMatchObject({ level: 40, msg: 'and deeper', step: 'deeper', reqId: info.reqId });
    expect(error).toMatchObject({ level: 50, reqId: info.reqId, err: { type: 'Error', message: 'went wrong' } });
    expect(JSON.stringify(lines)).not.toContain('s3cret');
    // the request's child, and the child of that
    expect(children).toBe(2);
  });

  it('gives a route with its own log level its child at once', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/verbose' });
    expect(lines).toEqual([expect.objectContaining({ level: 20, msg: 'a route of its own level' })]);
  });
});
