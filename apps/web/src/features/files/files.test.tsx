import { QueryClient } from '@tanstack/react-query';
import type { TFileList } from '@zelo/shared';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubLocalStorage } from '../../testing/renderScreen';

const calls: { method: string; url: string; body?: unknown }[] = [];
let answers: TFileList[] = [];
vi.mock('../../api/http', async (original) => {
  const actual = await original<typeof import('../../api/http')>();
  const record = (method: string) => async (url: string, body?: unknown) => {
    calls.push({ method, url, body });
    return answers.shift();
  };

  return {
    ...actual,
    api: {
      get: record('GET'),
      post: record('POST'),
      put: record('PUT'),
      delete: record('DELETE'),
      upload: record('UPLOAD'),
    },
  };
});

beforeAll(() => stubLocalStorage());
beforeEach(() => {
  calls.length = 0;
  answers = [];
});

const option = (id: number, name: string, path = '') => ({
  id,
  fileId: 5,
  name,
  path,
  mediaType: path ? 'application/pdf' : '',
  url: path ? `http://h/public/${path}` : null,
});
const list = (fields: Partial<TFileList> = {}): TFileList => ({
  id: 5,
  companyId: 1,
  name: 'Brochures',
  message: 'Here they are',
  options: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

/** an XMLHttpRequest that answers each send with the next list, reporting progress first */
const fakeXhr = (sent: { url: string; auth: string | null; form: FormData }[]) => {
  class FakeXhr {
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
      onprogress: null,
    };
    status = 0;
    responseText = '';
    withCredentials = false;
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    private url = '';
    private auth: string | null = null;
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      if (name === 'Authorization') this.auth = value;
    }
    send(form: FormData) {
      sent.push({ url: this.url, auth: this.auth, form });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
      this.status = 200;
      this.responseText = JSON.stringify(answers.shift());
      this.onload?.();
    }
  }
  (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = FakeXhr;
};

describe('file lists: saving the dialog', { timeout: 90_000 }, () => {
  it('maps each row to its option: stored rows keep their id, new rows take the new ids in order', async () => {
    const { rowOptionIds } = await import('./useFileLists');
    const rows = [
      { key: 'a', name: 'New one', file: null, stored: null },
      { key: 'b', id: 3, name: 'Kept', file: null, stored: null },
      { key: 'c', name: 'New two', file: null, stored: null },
    ];
    const saved = list({ options: [option(3, 'Kept'), option(8, 'New one'), option(9, 'New two')] });
    expect(rowOptionIds(rows, saved)).toEqual([8, 3, 9]);
  });

  it("writes the list, then uploads each chosen file for its row as the ancestor's form, with progress", async () => {
    const sent: { url: string; auth: string | null; form: FormData }[] = [];
    fakeXhr(sent);
    (await import('../../api/session')).setToken('session-token');
    const { saveFileList } = await import('./useFileLists');
    const pdf = new File(['%PDF-1.4'], 'prices.pdf', { type: 'application/pdf' });
    const created = list({ options: [option(8, 'Prices'), option(9, 'Empty row')] });
    const afterUpload = list({ options: [option(8, 'Prices', 'ab.pdf'), option(9, 'Empty row')] });
    answers = [created, afterUpload];
    const progress: [string, number][] = [];
    const saved: TFileList[] = [];
    const result = await saveFileList(
      null,
      { name: 'Brochures', message: 'Here they are' },
      [
        { key: 'r1', name: 'Prices', file: pdf, stored: null },
        { key: 'r2', name: 'Empty row', file: null, stored: null },
      ],
      (key, p) => progress.push([key, p]),
      (l) => saved.push(l),
    );
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/files',
        body: { name: 'Brochures', message: 'Here they are', options: [{ name: 'Prices' }, { name: 'Empty row' }] },
      },
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe('/api/files/uploadList/5');
    expect(sent[0].auth).toBe('Bearer session-token');
    const form = sent[0].form;
    expect(form.get('id')).toBe('8');
    expect(form.get('name')).toBe('Prices');
    expect(form.get('mediaType')).toBe('application/pdf');
    expect((form.get('files') as File).name).toBe('prices.pdf');
    expect(progress).toEqual([
      ['r1', 50],
      ['r1', 100],
    ]);
    expect(saved).toEqual([created, afterUpload]);
    expect(result).toEqual(afterUpload);
  });

  it('an edit sends the ids of the kept rows and nothing for a removed one', async () => {
    const { saveFileList } = await import('./useFileLists');
    answers = [list()];
    await saveFileList(
      5,
      { name: 'Brochures', message: 'm' },
      [{ key: 'option-3', id: 3, name: 'Renamed', file: null, stored: option(3, 'Old', 'x.pdf') }],
      () => undefined,
      () => undefined,
    );
    expect(calls).toEqual([
      {
        method: 'PUT',
        url: '/files/5',
        body: { name: 'Brochures', message: 'm', options: [{ id: 3, name: 'Renamed' }] },
      },
    ]);
  });

  it('applies the company-{id}-file events: the list on create and update, its id on delete', async () => {
    const { fileListEventChange } = await import('./useFileLists');
    const l = list();
    expect(fileListEventChange({ action: 'create', fileList: l, files: l })).toEqual({ upsert: l });
    expect(fileListEventChange({ action: 'update', fileList: l, files: l })).toEqual({ upsert: l });
    expect(fileListEventChange({ action: 'delete', fileId: 5 })).toEqual({ remove: 5 });
  });

  it('starts a new list with one empty row, an edited one with its stored rows', async () => {
    const { initialRows } = await import('./FileListDialog');
    const fresh = initialRows(null);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).toMatchObject({ name: '', file: null, stored: null });
    const stored = option(3, 'Prices', 'x.pdf');
    expect(initialRows(list({ options: [stored] }))).toEqual([
      { key: 'option-3', id: 3, name: 'Prices', file: null, stored },
    ]);
  });
});

describe('file lists: the screen', { timeout: 90_000 }, () => {
  it('lists the lists with the count of stored files', async () => {
    const { default: FilesPage } = await import('./FilesPage');
    const client = new QueryClient();
    const withFiles = list({ options: [option(1, 'A', 'a.pdf'), option(2, 'B', 'b.pdf'), option(3, 'No file yet')] });
    const single = list({ id: 6, name: 'Logo', options: [option(4, 'Logo', 'l.png')] });
    client.setQueryData(['files', 'page', '', {}], {
      pages: [{ files: [withFiles, single], count: 2, hasMore: false }],
      pageParams: [1],
    });
    const html = await renderScreen(<FilesPage />, { path: '/files', client });
    expect(html).toContain('File lists');
    expect(html).toContain('data-testid="files-add"');
    expect(html).toContain('data-testid="file-list-row-Brochures"');
    expect(html).toMatch(/data-testid="file-list-count-5"[^>]*>2 files</);
    expect(html).toMatch(/data-testid="file-list-count-6"[^>]*>1 file</);
    expect(html).toContain('data-testid="file-list-edit-Logo"');
  });
});
