import { ERROR_CATALOGUE, type TErrorBody, type TErrorCode } from '@zelo/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { databaseErrorAnswer } from './db-conflicts';

export type TErrorDetail = { path: string; message: string };

/** An expected failure: answered with its catalogue code and status, never logged as a crash. */
export class AppError extends Error {
  readonly code: TErrorCode;
  readonly status: number;
  readonly details?: TErrorDetail[];

  /** `status` overrides the catalogue's where one code answers differently on another route */
  constructor(code: TErrorCode, message?: string, details?: TErrorDetail[], status?: number) {
    super(message ?? code);
    this.code = code;
    this.status = status ?? ERROR_CATALOGUE[code];
    this.details = details;
  }
}

export const notFound = (code: TErrorCode = 'ERR_NOT_FOUND') => new AppError(code);

const body = (code: TErrorCode, message: string, details?: TErrorDetail[]): TErrorBody =>
  details ? { error: code, message, details } : { error: code, message };

/** Maps every error to `{error, message, details?}`: bad input never answers 500. */
export const toErrorAnswer = (err: unknown): { status: number; body: TErrorBody; crash: boolean } => {
  if (err instanceof AppError) {
    return { status: err.status, body: body(err.code, err.message, err.details), crash: false };
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const context = (err as { validationContext?: string }).validationContext ?? 'body';
    const details = err.validation.map((v) => ({
      path: v.instancePath.replace(/^\//, '').replaceAll('/', '.') || context,
      message: v.message ?? 'invalid',
    }));

    return { status: 400, body: body('ERR_VALIDATION', `Invalid ${context}`, details), crash: false };
  }
  const refused = databaseErrorAnswer(err);
  if (refused) return toErrorAnswer(refused);
  const e = err as FastifyError & { code?: string; statusCode?: number };
  if (e.statusCode === 413)
    return { status: 413, body: body('ERR_PAYLOAD_TOO_LARGE', 'Payload too large'), crash: false };
  if (e.statusCode === 415) {
    return { status: 415, body: body('ERR_UNSUPPORTED_MEDIA_TYPE', 'Unsupported media type'), crash: false };
  }
  if (e.statusCode === 429) {
    return { status: 429, body: body('ERR_TOO_MANY_REQUESTS', 'Too many requests'), crash: false };
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: 400, body: body('ERR_VALIDATION', e.message), crash: false };
  }

  return {
    status: 500,
    body: body('ERR_INTERNAL_SERVER_ERROR', 'Unexpected error, try again later'),
    crash: true,
  };
};

const answerError = (err: unknown, request: FastifyRequest, reply: FastifyReply) => {
  const answer = toErrorAnswer(err);
  // the logger's `err` serializer (lib/logger.ts) keeps a database error's code, constraint and query name,
  // never its parameters
  if (answer.crash) request.log.error({ err, route: request.routeOptions?.url }, 'request failed');
  reply.status(answer.status).send(answer.body);
};

export const registerErrorHandling = (app: FastifyInstance) => {
  app.setErrorHandler(answerError);
};

/**
 * Fastify's `frameworkErrors` option: what the router refuses before any route runs (a path that is not
 * valid percent-encoding, a parameter over `maxParamLength`) answers like every other error.
 */
export const answerFrameworkError = answerError;
