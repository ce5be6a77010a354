import { events, type TFileList, type TFileListEvent, type TFileOption } from '@zelo/shared';
import { ApiError, api, refreshAccessToken } from '../../api/http';
import { getToken } from '../../api/session';
import { matchesSearch, useLiveList } from '../../components/kit';

export const FILE_LISTS_QUERY_KEY = ['files', 'page'] as const;

const FILE_LISTS = {
  queryKey: FILE_LISTS_QUERY_KEY,
  itemsKey: 'files',
  matches: (f: TFileList, search: string) => matchesSearch(search, f.name),
};

/** `company-{id}-file`: the list on create and update, its id on delete (the ancestor's payloads) */
export const fileListEventChange = (data: TFileListEvent) =>
  data.action === 'delete' ? { remove: Number(data.fileId) } : { upsert: data.fileList };

/** one row of the dialog: a stored option (with `id`) or a new one, and the file chosen for it */
export type TFileRow = { key: string; id?: number; name: string; file: File | null; stored: TFileOption | null };

/**
 * The option each row became once the list is saved: a stored row keeps its id; the new rows are the answer's
 * options whose ids the request did not carry, in the order they were sent (the server inserts them so).
 */
export const rowOptionIds = (rows: TFileRow[], saved: TFileList): (number | undefined)[] => {
  const sentIds = new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
  const fresh = saved.options.filter((o) => !sentIds.has(o.id)).map((o) => o.id);
  let next = 0;

  return rows.map((row) => row.id ?? fresh[next++]);
};

/** the upload's form as the ancestor's FileModal builds it: `files`, `mediaType`, `name`, `id` per file */
export const uploadForm = (fileListId: number, uploads: { id: number; name: string; file: File }[]) => {
  const form = new FormData();
  form.append('fileId', String(fileListId));
  form.append('typeArch', 'fileList');
  for (const upload of uploads) {
    form.append('files', upload.file, upload.file.name);
    form.append('mediaType', upload.file.type);
    form.append('name', upload.name);
    form.append('id', String(upload.id));
  }

  return form;
};

const xhrUpload = (url: string, form: FormData, token: string | null, onProgress: (percent: number) => void) =>
  new Promise<TFileList>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    if (token) {
      xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    }
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) {
        onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'ERR_NETWORK', 'Network error'));
    xhr.onload = () => {
      let body: Record<string, unknown> | undefined;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body as TFileList);
        return;
      }
      const code = typeof body?.error === 'string' ? body.error : `ERR_HTTP_${xhr.status}`;
      reject(new ApiError(xhr.status, code, String(body?.message ?? code), body?.details as never, body));
    };
    xhr.send(form);
  });

/**
 * POST /files/uploadList/:id with upload progress (fetch cannot report it); an expired session is refreshed
 * once and the upload sent again, like every other call.
 */
export const uploadListFile = async (
  fileListId: number,
  upload: { id: number; name: string; file: File },
  onProgress: (percent: number) => void,
) => {
  const url = `/api/files/uploadList/${fileListId}`;
  try {
    return await xhrUpload(url, uploadForm(fileListId, [upload]), getToken(), onProgress);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 403 && err.code === 'ERR_SESSION_EXPIRED')) {
      throw err;
    }
    await refreshAccessToken();

    return xhrUpload(url, uploadForm(fileListId, [upload]), getToken(), onProgress);
  }
};

/**
 * Saves the list (name, message, its rows), then uploads each chosen file for its row, one request per file so
 * each shows its progress. `knownId` is the list a previous, half-finished save already created.
 */
export const saveFileList = async (
  knownId: number | null,
  values: { name: string; message: string },
  rows: TFileRow[],
  onProgress: (key: string, percent: number) => void,
  onSaved: (list: TFileList) => void,
): Promise<TFileList> => {
  const body = { ...values, options: rows.map((r) => (r.id ? { id: r.id, name: r.name } : { name: r.name })) };
  let saved =
    knownId === null ? await api.post<TFileList>('/files', body) : await api.put<TFileList>(`/files/${knownId}`, body);
  onSaved(saved);
  const ids = rowOptionIds(rows, saved);
  for (const [i, row] of rows.entries()) {
    const id = ids[i];
    if (!row.file || id === undefined) {
      continue;
    }
    saved = await uploadListFile(saved.id, { id, name: row.name, file: row.file }, (p) => onProgress(row.key, p));
    onSaved(saved);
  }

  return saved;
};

/** GET /files page by page, kept in step with saves, deletes and the company's file-list events. */
export const useFileLists = (searchParam: string) =>
  useLiveList<TFileList, TFileListEvent>({
    ...FILE_LISTS,
    path: '/files',
    searchParam,
    event: events.file,
    toChange: fileListEventChange,
  });
