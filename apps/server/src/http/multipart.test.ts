import { type ClientRequest, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from './errors';
import { readRequiredUpload, readSingleUpload, registerMultipart } from './multipart';

/** The one single-file upload reader (attach and import routes): a bare Fastify app with a 64-byte file limit. */

type TPart = { name: string; value?: string; file?: Buffer; fileName?: string };

const multipart = (parts: TPart[]) => {
  const boundary = 'zeloUploadTestBoundary';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (p.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        p.file,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));

  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  registerErrorHandling(app);
  await app.register(async (scope) => {
    await registerMultipart(scope, { limits: { fileSize: 64, files: 3, fields: 5 } });
    const describeUpload = (upload: { data: Buffer; fileName: string } | undefined) =>
      upload ? { fileName: upload.fileName, text: upload.data.toString() } : { none: true };
    scope.post('/optional', async (request) => describeUpload(await readSingleUpload(request, 'image')));
    scope.post('/required', async (request) => describeUpload(await readRequiredUpload(request, 'spreadsheet')));
  });
  // a one-file form (the spreadsheet imports), 1 MB at most
  await app.register(async (scope) => {
    await registerMultipart(scope, { limits: { fileSize: 1024 * 1024, files: 1, fields: 10 } });
    scope.post('/sheet', async (request) => ({ read: Boolean(await readSingleUpload(request, 'spreadsheet')) }));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const post = async (url: string, parts: TPart[]) => {
  const res = await app.inject({ method: 'POST', url, ...multipart(parts) });

  return { status: res.statusCode, body: res.json() };
};

describe('readSingleUpload', () => {
  it('takes the first file part, with its name, past text fields and later files', async () => {
    const res = await post('/optional', [
      { name: 'typeArch', value: 'quickMessage' },
      { name: 'file', file: Buffer.from('first'), fileName: 'a.png' },
      { name: 'file', file: Buffer.from('second'), fileName: 'b.png' },
    ]);
    expect(res).toEqual({ status: 200, body: { fileName: 'a.png', text: 'first' } });
  });

  it('answers undefined for a form without a file, and 400 where the file is required', async () => {
    expect(await post('/optional', [{ name: 'x', value: 'y' }])).toEqual({ status: 200, body: { none: true } });
    const required = await post('/required', [{ name: 'x', value: 'y' }]);
    expect(required.status).toBe(400);
    expect(required.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: 'file', message: 'required' }] });
  });

  it('refuses a body that is not multipart with 415 naming what to send', async () => {
    const res = await app.inject({ method: 'POST', url: '/required', payload: { file: 'x' } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      error: 'ERR_UNSUPPORTED_MEDIA_TYPE',
      message: expect.stringContaining('spreadsheet'),
    });
  });

  it('answers 413 for a file over the scope limit', async () => {
    const res = await post('/optional', [{ name: 'file', file: Buffer.alloc(65, 1), fileName: 'big.png' }]);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
  });

  it('refuses unstorable text in a file name or a field with 400, naming the field', async () => {
    const inName = await post('/optional', [{ name: 'file', file: Buffer.from('x'), fileName: 'a\u0000.png' }]);
    expect(inName).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', details: [{ path: 'file' }] } });
    const inField = await post('/optional', [
      { name: 'file', file: Buffer.from('x'), fileName: 'a.png' },
      { name: 'note', value: 'bad\u0000' },
    ]);
    expect(inField).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION', details: [{ path: 'note' }] } });
  });

  it('answers a body cut short with 400, not 500', async () => {
    const { payload, headers } = multipart([{ name: 'file', file: Buffer.from('abc'), fileName: 'a.png' }]);
    const res = await app.inject({
      method: 'POST',
      url: '/optional',
      headers,
      payload: payload.subarray(0, payload.length - 12),
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('a one-file form larger than its file may be', () => {
  it('is refused (413) as soon as its headers say so, before a byte of the body is read', async () => {
    const { port } = app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req: ClientRequest = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/sheet',
          headers: {
            'content-type': 'multipart/form-data; boundary=zeloUploadTestBoundary',
            // 20 MB announced, a few bytes sent, and the body never finished: only an answer from the headers
            // alone can come back
            'content-length': String(20 * 1024 * 1024),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c.toString();
          });
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body });
            req.destroy();
          });
        },
      );
      req.on('error', reject);
      req.write('--zeloUploadTestBoundary\r\n');
      setTimeout(() => reject(new Error('no answer before the body was sent')), 3000).unref();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
  });
});
