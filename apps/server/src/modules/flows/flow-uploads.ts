import { FLOW_UPLOAD_LIMITS, type TFlowUploadAnswer, type TFlowUploadKind } from '@zelo/shared';
import type { FastifyRequest } from 'fastify';
import type { TAuth } from '../../http/authenticate';
import { AppError } from '../../http/errors';
import { findUnstorableText } from '../../http/input-guard';
import { readingMultipart } from '../../http/multipart';
import type { TAppContext } from '../../lib/context';
import { cleanFileName, detectType, removeMediaFile, storeMediaFile } from '../messages/media';
import { mediaUrlOf } from '../messages/message-dto';
import { findFlow, insertUpload } from './flows.repo';

/**
 * Uploads of the flow editor (spec 3 §5): image png/jpeg ≤ 2 MB, audio ogg/opus/mp3 ≤ 5 MB, video MP4 only
 * ≤ 20 MB, each typed by its content (never by its name or the browser's guess), stored under the media
 * directory with a random name and recorded in `flow_uploads` for the company.
 */

/** the largest file any route takes (video) */
export const FLOW_UPLOAD_MAX = FLOW_UPLOAD_LIMITS.video;

/** the kind of an accepted file by its content, or null */
const kindOf = (data: Buffer): { kind: TFlowUploadKind; mime: string; ext: string } | null => {
  const t = detectType(data);
  if (t.kind === 'image' && (t.ext === 'jpg' || t.ext === 'png')) return { kind: 'image', mime: t.mime, ext: t.ext };
  if (t.kind === 'audio' && (t.ext === 'ogg' || t.ext === 'mp3')) return { kind: 'audio', mime: t.mime, ext: t.ext };
  if (t.kind === 'video' && t.ext === 'mp4') return { kind: 'video', mime: t.mime, ext: t.ext };

  return null;
};

export type TFlowUploadFile = { data: Buffer; fileName: string };

/** the `medias` parts of the ancestor's forms (and an optional `flowId` field) */
export const readFlowUploads = (request: FastifyRequest) =>
  readingMultipart(async () => {
    if (!request.isMultipart()) {
      throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', 'Send the files as multipart/form-data');
    }
    const files: TFlowUploadFile[] = [];
    let flowId: number | undefined;
    for await (const part of request.parts()) {
      const text = part.type === 'file' ? part.filename : part.value;
      const unstorable = findUnstorableText({ [part.fieldname]: text }, 'body');
      if (unstorable) throw new AppError('ERR_VALIDATION', 'Invalid character in the request', [unstorable]);
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'medias' || part.fieldname === 'medias[]') files.push({ data, fileName: part.filename });
        continue;
      }
      if (part.fieldname === 'flowId' && /^\d{1,9}$/.test(String(part.value))) flowId = Number(part.value);
    }
    if (files.length === 0) {
      throw new AppError('ERR_VALIDATION', 'No file', [{ path: 'medias', message: 'required' }]);
    }

    return { files, flowId };
  });

/**
 * stores files of the kinds a route accepts (every file checked before any is stored); answers each stored
 * file in order
 */
export const storeFlowUploads = async (
  ctx: TAppContext,
  auth: TAuth,
  input: { files: TFlowUploadFile[]; flowId?: number },
  accepted: readonly TFlowUploadKind[],
): Promise<TFlowUploadAnswer[]> => {
  const checked = input.files.map((file, i) => {
    const type = file.data.length > 0 ? kindOf(file.data) : null;
    if (!type || !accepted.includes(type.kind)) {
      throw new AppError('ERR_FLOW_MEDIA_TYPE', `${cleanFileName(file.fileName, 'file')} is not an accepted file`, [
        { path: `medias.${i}`, message: 'invalid' },
      ]);
    }
    if (file.data.length > FLOW_UPLOAD_LIMITS[type.kind]) {
      throw new AppError('ERR_FLOW_MEDIA_TOO_LARGE', `${type.kind} files are limited`, [
        { path: `medias.${i}`, message: String(FLOW_UPLOAD_LIMITS[type.kind]) },
      ]);
    }
    return { file, type };
  });
  const flowId = input.flowId && (await findFlow(ctx.db, auth.companyId, input.flowId)) ? input.flowId : null;
  const answers: TFlowUploadAnswer[] = [];
  for (const { file, type } of checked) {
    const path = await storeMediaFile(ctx.config, file.data, type.ext);
    try {
      const row = await insertUpload(ctx.db, {
        companyId: auth.companyId,
        userId: auth.userId,
        flowId,
        kind: type.kind,
        name: cleanFileName(file.fileName, `${type.kind}.${type.ext}`).slice(0, 255),
        path,
        mime: type.mime,
        size: file.data.length,
      });
      answers.push({
        id: row.id,
        name: row.path,
        original: row.name,
        kind: type.kind,
        mime: row.mime,
        size: row.size,
        url: mediaUrlOf(row.path) ?? '',
      });
    } catch (err) {
      await removeMediaFile(ctx.config, path);
      throw err;
    }
  }

  return answers;
};
