import { FILE_LIST_LIMITS, ZFileListBody, ZIdParams, ZListQuery } from '@zelo/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { route } from '../../http/declare';
import { AppError } from '../../http/errors';
import { findUnstorableText } from '../../http/input-guard';
import { readingMultipart, registerMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import {
  createFileList,
  deleteFileList,
  getFileList,
  getFileListPage,
  listFileLists,
  type TListUpload,
  updateFileList,
  uploadListFiles,
} from './files.service';

/** files one upload request may carry (the ancestor's dialog sends all of a list's new files at once) */
const MAX_FILES_PER_UPLOAD = 10;
/** what one upload request may weigh: two documents at their limit, or ten media files */
const MAX_UPLOAD_REQUEST = 2 * FILE_LIST_LIMITS.application + 1024 * 1024;

/**
 * The ancestor's FileModal form: for each chosen file, in this order, `files` (the file), `mediaType` (the
 * browser's guess: ignored), `name` and `id` (its row); plus `fileId` and `typeArch` once (read and ignored).
 * The n-th file goes with the n-th `id` and `name`.
 */
const readUploads = (request: FastifyRequest) =>
  readingMultipart(async () => {
    if (!request.isMultipart()) {
      throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the files as multipart/form-data');
    }
    const files: { data: Buffer; fileName: string }[] = [];
    const ids: string[] = [];
    const names: string[] = [];
    for await (const part of request.parts()) {
      const text = part.type === 'file' ? part.filename : part.value;
      const unstorable = findUnstorableText({ [part.fieldname]: text }, 'body');
      if (unstorable) throw new AppError('ERR_VALIDATION', 'Invalid character in the request', [unstorable]);
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'files' || part.fieldname === 'files[]') files.push({ data, fileName: part.filename });
        continue;
      }
      if (part.fieldname === 'id' || part.fieldname === 'id[]') ids.push(String(part.value));
      if (part.fieldname === 'name' || part.fieldname === 'name[]') names.push(String(part.value));
    }

    return files.map((file, i): TListUpload => {
      const raw = ids[i]?.trim() ?? '';
      let optionId: number | undefined;
      if (raw !== '') {
        if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > 2147483647) {
          throw new AppError('ERR_VALIDATION', 'Invalid row id', [{ path: `id.${i}`, message: 'invalid' }]);
        }
        optionId = Number(raw);
      }

      return { ...file, optionId, name: names[i] };
    });
  });

const ZFilesListQuery = z.object({ searchParam: z.string().trim().max(200).optional().default('') });

export const filesRoutes = (app: FastifyInstance, ctx: TAppContext) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['files'];
  const admin = route({ auth: 'admin' });
  // `companyId` in the query (the ancestor sends it) is ignored: always the caller's company
  r.get('/api/files/list', { config: admin, schema: { tags, querystring: ZFilesListQuery } }, (request) =>
    listFileLists(ctx, request.auth, request.query.searchParam),
  );
  r.get('/api/files', { config: admin, schema: { tags, querystring: ZListQuery } }, (request) =>
    getFileListPage(ctx, request.auth, request.query),
  );
  r.get('/api/files/:id', { config: admin, schema: { tags, params: ZIdParams } }, (request) =>
    getFileList(ctx, request.auth, request.params.id),
  );
  r.post('/api/files', { config: admin, schema: { tags, body: ZFileListBody } }, (request) =>
    createFileList(ctx, request.auth, request.body),
  );
  r.put('/api/files/:id', { config: admin, schema: { tags, params: ZIdParams, body: ZFileListBody } }, (request) =>
    updateFileList(ctx, request.auth, request.params.id, request.body),
  );
  r.delete('/api/files/:id', { config: admin, schema: { tags, params: ZIdParams } }, async (request) => {
    await deleteFileList(ctx, request.auth, request.params.id);

    return { message: 'File List deleted' };
  });

  // the files: multipart parsing only in this context
  app.register(async (scope) => {
    await registerMultipart(scope, {
      limits: { fileSize: FILE_LIST_LIMITS.application, files: MAX_FILES_PER_UPLOAD, fields: 100, fieldSize: 4096 },
      throwFileSizeLimit: true,
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/files/uploadList/:id',
      {
        config: admin,
        bodyLimit: MAX_UPLOAD_REQUEST,
        schema: {
          tags,
          params: ZIdParams,
          consumes: ['multipart/form-data'],
          description:
            'multipart: for each file `files` (the file), `name` and `id` (its row of the list), in that order; ' +
            'typed by content; 16 MB for images, audio and video, 100 MB for documents',
        },
      },
      (request) => uploadListFiles(ctx, request.auth, request.params.id, () => readUploads(request)),
    );
  });
};
