import { z } from 'zod';
import { V, zId } from './common.js';

/** the most files one list holds (each is sent before a campaign's message) */
export const FILE_LIST_MAX_OPTIONS = 20;

/**
 * WhatsApp's own limits for what a file list may hold, by the kind its content shows: 16 MB for images,
 * audio and video, 100 MB for documents. Larger files are refused (413) when they are uploaded.
 */
export const FILE_LIST_LIMITS = {
  image: 16 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  video: 16 * 1024 * 1024,
  application: 100 * 1024 * 1024,
} as const;

/**
 * One file row of a list as the dialog sends it: its name, and its id when it is already stored. The file
 * itself goes to POST /files/uploadList/:id afterwards; `path` and `mediaType` sent here (the ancestor sends
 * back what it loaded) are ignored: only an upload sets them.
 */
export const ZFileOptionInput = z.object({
  id: zId.optional(),
  name: z.string({ error: V.invalid }).trim().max(255, V.tooLong).default(''),
});
export type TFileOptionInput = z.infer<typeof ZFileOptionInput>;

/** POST /files and PUT /files/:id (spec 3 §2.2, the ancestor's FileModal: name ≥ 3, message required) */
export const ZFileListBody = z.object({
  name: z.string({ error: V.required }).trim().min(1, V.required).min(3, V.tooShort).max(100, V.tooLong),
  message: z.string({ error: V.required }).trim().min(1, V.required).max(4000, V.tooLong),
  /** the list's files; on an update, the rows left out are removed (their stored files with them) */
  options: z.array(ZFileOptionInput).max(FILE_LIST_MAX_OPTIONS, V.tooLong).optional(),
});
export type TFileListBody = z.infer<typeof ZFileListBody>;

export const ZFileOption = z.object({
  id: z.number(),
  fileId: z.number(),
  name: z.string(),
  /** the stored file's name under /public (empty until a file is uploaded) */
  path: z.string(),
  /** its type, read from its content */
  mediaType: z.string(),
  /** the public URL of the stored file, null without one */
  url: z.string().nullable(),
});
export type TFileOption = z.infer<typeof ZFileOption>;

export const ZFileList = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  message: z.string(),
  options: z.array(ZFileOption),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TFileList = z.infer<typeof ZFileList>;

/** `company-{id}-file` payloads (the ancestor's: `fileList` on create/update, `fileId` on delete) */
/**
 * `company-{id}-file` payloads. A create or update carries the list twice: `fileList` (Zelo's name) and `files`
 * (what the ancestor's Files page reads: `dispatch({type: "UPDATE_FILES", payload: data.files})`, one list by
 * id — without it the page blanked after a save).
 */
export type TFileListEvent =
  | { action: 'create' | 'update'; fileList: TFileList; files: TFileList }
  | { action: 'delete'; fileId: number };
