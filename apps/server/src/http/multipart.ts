import fastifyMultipart, { type FastifyMultipartOptions } from '@fastify/multipart';
import { V } from '@zelo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { findUnstorableText } from './input-guard';

/** RFC 2046: a boundary is 1 to 70 characters, quoted or not */
const BOUNDARY = /;\s*boundary=(?:"[^"]{1,70}"|[^\s;"]{1,70})(?:[\s;]|$)/i;

const malformed = (message: string) => new AppError('ERR_VALIDATION', message, [{ path: 'body', message: V.invalid }]);

/**
 * Multipart parsing for one scope's routes: the plugin (unless the server already parses multipart) and a
 * check that a multipart request names its boundary, which the parser would otherwise fail on with no status.
 */
export const registerMultipart = async (scope: FastifyInstance, options: FastifyMultipartOptions = {}) => {
  if (!scope.hasContentTypeParser('multipart/form-data')) await scope.register(fastifyMultipart, options);
  const oneFileMax = options.limits?.files === 1 ? options.limits.fileSize : undefined;
  scope.addHook('preValidation', async (request, reply) => {
    if (request.isMultipart() && !BOUNDARY.test(request.headers['content-type'] ?? '')) {
      throw malformed('A multipart body needs a boundary');
    }
    // a one-file form that says it is larger than its file may be is refused before a byte of it is read (the
    // parser would read up to the limit first: a client sending 20 MB files in a loop would keep the server
    // busy receiving and collecting them)
    const declared = Number(request.headers['content-length']);
    if (oneFileMax !== undefined && Number.isFinite(declared) && declared > oneFileMax + FORM_OVERHEAD) {
      // and the connection closed after the answer: the rest of the body is never received
      reply.header('connection', 'close');
      throw new AppError('ERR_PAYLOAD_TOO_LARGE', 'The file is too large', [{ path: 'file', message: 'tooLarge' }]);
    }
  });
};

/** what a one-file form may carry besides its file: boundaries, part headers and its few small fields */
const FORM_OVERHEAD = 64 * 1024;

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

/** one uploaded file as the routes hand it to their services */
export type TUpload = { data: Buffer; fileName: string };

/**
 * The single-file upload every attach/import route reads: a multipart body (else 415 "Send the {what} as
 * multipart/form-data"), every part's text (field values and file names) checked for unstorable characters
 * (400), the first file part taken and the rest read past. Limits are the scope's (`registerMultipart`):
 * a file over them answers the plugin's 413. `undefined` when the form holds no file.
 */
export const readSingleUpload = (request: FastifyRequest, what: string): Promise<TUpload | undefined> => {
  if (!request.isMultipart()) {
    return Promise.reject(new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', `Send the ${what} as multipart/form-data`));
  }

  return readingMultipart(async () => {
    let upload: TUpload | undefined;
    for await (const part of request.parts()) {
      const text = part.type === 'file' ? part.filename : part.value;
      const unstorable = findUnstorableText({ [part.fieldname]: text }, 'body');
      if (unstorable) throw new AppError('ERR_VALIDATION', 'Invalid character in the request', [unstorable]);
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      upload ??= { data, fileName: part.filename };
    }

    return upload;
  });
};

/** `readSingleUpload` where the file is required: none answers 400 `ERR_VALIDATION` on `file` */
export const readRequiredUpload = async (request: FastifyRequest, what: string): Promise<TUpload> => {
  const upload = await readSingleUpload(request, what);
  if (!upload) throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'file', message: 'required' }]);

  return upload;
};
