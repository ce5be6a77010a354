import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFileList, SAMPLE_PDF, uploadListFiles } from '../../../test/catalogue-fixtures';
import { createLoggedUser, openSocket, recordEvents, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';
import { mediaDir } from '../messages/media';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const MB = 1024 * 1024;

let server: TTestServer;
let tenant: TTenant;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
});
afterAll(() => server.close());

const onDisk = (name: string) => name !== '' && existsSync(join(mediaDir(server.ctx.config), name));
const filesOnDisk = () =>
  existsSync(mediaDir(server.ctx.config)) ? readdirSync(mediaDir(server.ctx.config)).sort() : [];
const read = async (id: number, token = tenant.token) => server.request('GET', `/api/files/${id}`, { token });

describe('file lists: the rules of the dialog', () => {
  it('needs a name of 3 or more and a message; a name is unique in the company, ignoring case', async () => {
    const short = await server.request('POST', '/api/files', {
      token: tenant.token,
      body: { name: 'ab', message: 'x' },
    });
    expect(short).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect(short.body.details).toContainEqual({ path: 'name', message: 'tooShort' });
    const noMessage = await server.request('POST', '/api/files', { token: tenant.token, body: { name: 'Prices' } });
    expect(noMessage.status).toBe(400);
    expect(noMessage.body.details).toContainEqual({ path: 'message', message: 'required' });
    const blank = await server.request('POST', '/api/files', {
      token: tenant.token,
      body: { name: 'Prices', message: '   ' },
    });
    expect(blank.body.details).toContainEqual({ path: 'message', message: 'required' });

    const name = unique('Price list');
    await addFileList(server, tenant, { name });
    const again = await server.request('POST', '/api/files', {
      token: tenant.token,
      body: { name: name.toUpperCase(), message: 'Other' },
    });
    expect(again).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_FILE_LIST' } });
    // another company may use the name
    const other = await server.createTenant('Other');
    await addFileList(server, other, { name });
  });

  it('is an admin screen: an agent gets 403 on every route', async () => {
    const agent = await createLoggedUser(server, tenant, { name: 'Agent' });
    const list = await addFileList(server, tenant);
    for (const [method, path, body] of [
      ['GET', '/api/files', undefined],
      ['GET', '/api/files/list', undefined],
      ['GET', `/api/files/${list.id}`, undefined],
      ['POST', '/api/files', { name: 'Agent list', message: 'x' }],
      ['PUT', `/api/files/${list.id}`, { name: 'Agent list', message: 'x' }],
      ['DELETE', `/api/files/${list.id}`, undefined],
      ['POST', `/api/files/uploadList/${list.id}`, {}],
    ] as const) {
      const res = await server.request(method, path, { token: agent.token, body });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
    expect((await read(list.id)).body.name).toBe(list.name);
  });
});

describe('file lists: list, edit, delete', () => {
  it('pages by name with the count, searches the name, and ignores the companyId it is sent', async () => {
    const t = await server.createTenant('Paging');
    const other = await server.createTenant('Foreign');
    const marker = unique('paged');
    for (let i = 0; i < 23; i++) await addFileList(server, t, { name: `${marker} ${String(i).padStart(2, '0')}` });
    await addFileList(server, t, { name: 'Unrelated list' });
    await addFileList(server, other, { name: `${marker} foreign` });
    const first = await server.request('GET', '/api/files', {
      token: t.token,
      query: { searchParam: marker, pageNumber: 1, companyId: other.companyId },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ count: 23, hasMore: true });
    expect(first.body.files).toHaveLength(20);
    expect(first.body.files[0]).toMatchObject({ name: `${marker} 00`, options: [{ name: 'Catalogue', path: '' }] });
    const second = await server.request('GET', '/api/files', {
      token: t.token,
      query: { searchParam: marker, pageNumber: 2 },
    });
    expect(second.body).toMatchObject({ count: 23, hasMore: false });
    expect(second.body.files.map((f: { name: string }) => f.name)).toEqual([
      `${marker} 20`,
      `${marker} 21`,
      `${marker} 22`,
    ]);
    const all = await server.request('GET', '/api/files/list', {
      token: t.token,
      query: { companyId: other.companyId },
    });
    expect(all.body).toHaveLength(24);
    expect(JSON.stringify(all.body)).not.toContain('foreign');
  });

  it('edits name, message and rows: rows kept by id are renamed, new ones added, missing ones removed with their file', async () => {
    const list = await addFileList(server, tenant, { options: [{ name: 'One' }, { name: 'Two' }] });
    const [one, two] = list.options;
    const up = await uploadListFiles(server, tenant.token, list.id, [
      { optionId: one.id, name: 'One', data: SAMPLE_PDF },
      { optionId: two.id, name: 'Two', data: PNG, fileName: 'two.png', type: 'image/png' },
    ]);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const twoPath = up.body.options.find((o: { id: number }) => o.id === two.id).path;
    expect(onDisk(twoPath)).toBe(true);

    const res = await server.request('PUT', `/api/files/${list.id}`, {
      token: tenant.token,
      // the ancestor sends back what it loaded (path, mediaType, fileId…): those are not taken
      body: {
        ...up.body,
        name: `${list.name} v2`,
        message: 'New message',
        options: [{ ...up.body.options[0], name: 'One renamed', path: 'elsewhere.pdf' }, { name: 'Three' }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: `${list.name} v2`, message: 'New message' });
    expect(res.body.options.map((o: { name: string }) => o.name)).toEqual(['One renamed', 'Three']);
    expect(res.body.options[0]).toMatchObject({
      id: one.id,
      path: up.body.options[0].path,
      mediaType: 'application/pdf',
    });
    expect(onDisk(twoPath)).toBe(false);
    expect(onDisk(res.body.options[0].path)).toBe(true);

    // a row id of another list is refused and nothing changes
    const otherList = await addFileList(server, tenant);
    const bad = await server.request('PUT', `/api/files/${list.id}`, {
      token: tenant.token,
      body: { name: 'Changed', message: 'Changed', options: [{ id: otherList.options[0].id, name: 'Stolen' }] },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    expect((await read(list.id)).body).toMatchObject({ name: `${list.name} v2`, options: res.body.options });
    expect((await read(otherList.id)).body.options[0].name).toBe('Catalogue');
  });

  it('deletes a list with its stored files; a missing id is 404', async () => {
    const list = await addFileList(server, tenant, { options: [{ name: 'A' }, { name: 'B' }] });
    const up = await uploadListFiles(
      server,
      tenant.token,
      list.id,
      list.options.map((o) => ({ optionId: o.id, name: o.name, data: SAMPLE_PDF })),
    );
    const paths = up.body.options.map((o: { path: string }) => o.path);
    expect(paths.every(onDisk)).toBe(true);
    const res = await server.request('DELETE', `/api/files/${list.id}`, { token: tenant.token });
    expect(res).toMatchObject({ status: 200, body: { message: 'File List deleted' } });
    expect(paths.some(onDisk)).toBe(false);
    expect((await read(list.id)).status).toBe(404);
    expect((await server.request('DELETE', `/api/files/${list.id}`, { token: tenant.token })).body.error).toBe(
      'ERR_NO_FILE_LIST_FOUND',
    );
  });
});

describe('file lists: uploads', () => {
  it('stores each file for its row, typed by its content whatever its name and label say, served under /public', async () => {
    const list = await addFileList(server, tenant, { options: [{ name: 'Brochure' }, { name: 'Logo' }] });
    const [brochure, logo] = list.options;
    const res = await uploadListFiles(server, tenant.token, list.id, [
      { optionId: brochure.id, name: 'Brochure', data: SAMPLE_PDF, fileName: 'brochure.pdf' },
      // a PNG named and labelled as a PDF
      { optionId: logo.id, name: 'Logo', data: PNG, fileName: 'logo.pdf', type: 'application/pdf' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [a, b] = res.body.options;
    expect(a).toMatchObject({ id: brochure.id, name: 'Brochure', mediaType: 'application/pdf' });
    expect(b).toMatchObject({ id: logo.id, name: 'Logo', mediaType: 'image/png' });
    expect(a.path).toMatch(/^[0-9a-f]{32}\.pdf$/);
    expect(b.path).toMatch(/^[0-9a-f]{32}\.png$/);
    const served = await fetch(`${server.url}/public/${b.path}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect(b.url).toContain(`/public/${b.path}`);
    // what the campaign engine reads: path = stored name, mediaType = mime, name = display name
    const { rows } = await server.database.executeSql(
      'select name, path, media_type from files_options where file_id = $1 order by id',
      [list.id],
    );
    expect(rows).toEqual([
      { name: 'Brochure', path: a.path, media_type: 'application/pdf' },
      { name: 'Logo', path: b.path, media_type: 'image/png' },
    ]);

    // a new file for a row replaces the earlier one, which is removed
    const again = await uploadListFiles(server, tenant.token, list.id, [
      { optionId: logo.id, name: 'Logo', data: SAMPLE_PDF },
    ]);
    expect(again.status).toBe(200);
    const newPath = again.body.options[1].path;
    expect(newPath).not.toBe(b.path);
    expect(onDisk(newPath)).toBe(true);
    expect(onDisk(b.path)).toBe(false);
    expect(onDisk(a.path)).toBe(true);
  });

  it("holds each file to WhatsApp's limit of its kind: 16 MB for images and video, 100 MB for documents (413 over)", async () => {
    const list = await addFileList(server, tenant, { options: [{ name: 'Big' }, { name: 'Small' }] });
    const [big, small] = list.options;
    const before = filesOnDisk();
    const image = Buffer.concat([PNG, Buffer.alloc(16 * MB)]);
    const tooBigImage = await uploadListFiles(server, tenant.token, list.id, [
      { optionId: small.id, name: 'Small', data: SAMPLE_PDF },
      { optionId: big.id, name: 'Big', data: image, fileName: 'big.png', type: 'image/png' },
    ]);
    expect(tooBigImage).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(16 * MB)]);
    const tooBigVideo = await uploadListFiles(server, tenant.token, list.id, [
      { optionId: big.id, name: 'Big', data: video, fileName: 'big.mp4', type: 'video/mp4' },
    ]);
    expect(tooBigVideo).toMatchObject({ status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } });
    // nothing stored, no row changed
    expect(filesOnDisk()).toEqual(before);
    expect((await read(list.id)).body.options.map((o: { path: string }) => o.path)).toEqual(['', '']);

    const document = Buffer.concat([SAMPLE_PDF, Buffer.alloc(17 * MB)]);
    const ok = await uploadListFiles(server, tenant.token, list.id, [
      { optionId: big.id, name: 'Big', data: document, fileName: 'big.pdf' },
    ]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.options[0]).toMatchObject({ mediaType: 'application/pdf' });
  });

  it('refuses a row of another list, a file without its row, an empty file and a request without files, storing nothing', async () => {
    const list = await addFileList(server, tenant);
    const other = await addFileList(server, tenant);
    const before = filesOnDisk();
    const cases = [
      [{ optionId: other.options[0].id, name: 'x', data: SAMPLE_PDF }],
      [{ optionId: '', name: 'x', data: SAMPLE_PDF }],
      [{ optionId: 'abc', name: 'x', data: SAMPLE_PDF }],
      [{ optionId: list.options[0].id, name: 'x', data: Buffer.alloc(0) }],
      [],
    ];
    for (const files of cases) {
      const res = await uploadListFiles(server, tenant.token, list.id, files);
      expect(res, JSON.stringify(files.map((f) => f.optionId))).toMatchObject({
        status: 400,
        body: { error: 'ERR_VALIDATION' },
      });
    }
    const json = await server.request('POST', `/api/files/uploadList/${list.id}`, { token: tenant.token, body: {} });
    expect(json).toMatchObject({ status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } });
    expect(filesOnDisk()).toEqual(before);
    const missing = await uploadListFiles(server, tenant.token, 2_000_000_000, [
      { optionId: list.options[0].id, name: 'x', data: SAMPLE_PDF },
    ]);
    expect(missing).toMatchObject({ status: 404, body: { error: 'ERR_NO_FILE_LIST_FOUND' } });
  });
});

describe('file lists: realtime', () => {
  it("announces create, update and delete on company-{id}-file to the company's admins only", async () => {
    const t = await server.createTenant('Live');
    const b = await server.createTenant('Elsewhere');
    const admin2 = await createLoggedUser(server, t, { name: 'Second admin', profile: 'admin' });
    const agent = await createLoggedUser(server, t, { name: 'Agent' });
    const sockets = [await openSocket(server, admin2.token), await openSocket(server, agent.token)];
    const foreign = await openSocket(server, b.token);
    const [adminHeard, agentHeard, foreignHeard] = [...sockets, foreign].map(recordEvents);
    const event = `company-${t.companyId}-file`;
    try {
      const list = await addFileList(server, t, { name: unique('Live list') });
      const created = await adminHeard.waitFor(event, (p) => p.action === 'create' && p.fileList?.id === list.id);
      expect(created.fileList).toMatchObject({ name: list.name, options: [{ name: 'Catalogue' }] });
      // the ancestor's Files page reads `data.files` (one list by id): the same list under that name
      expect(created.files).toEqual(created.fileList);
      await uploadListFiles(server, t.token, list.id, [
        { optionId: list.options[0].id, name: 'Catalogue', data: SAMPLE_PDF },
      ]);
      const updated = await adminHeard.waitFor(
        event,
        (p) => p.action === 'update' && p.fileList?.options?.[0]?.mediaType === 'application/pdf',
      );
      expect(updated.fileList.id).toBe(list.id);
      expect(updated.files).toEqual(updated.fileList);
      await server.request('DELETE', `/api/files/${list.id}`, { token: t.token });
      await adminHeard.waitFor(event, (p) => p.action === 'delete' && p.fileId === list.id);
      expect(agentHeard.heard.filter((h) => h.event === event)).toEqual([]);
      expect(foreignHeard.heard.filter((h) => h.event.includes('-file'))).toEqual([]);
    } finally {
      for (const s of [...sockets, foreign]) s.close();
    }
  });
});
