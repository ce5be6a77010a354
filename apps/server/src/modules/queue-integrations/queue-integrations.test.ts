import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedUser, createPlan, openSocket, recordEvents, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let tenant: TTenant;
beforeAll(async () => {
  server = await startTestServer();
  tenant = await server.createTenant();
});
afterAll(() => server.close());

const sql = async <T = any>(text: string, values: unknown[] = []) =>
  (await server.database.executeSql(text, values)).rows as T[];

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
const serviceAccount = JSON.stringify({
  type: 'service_account',
  client_email: 'bot@project.iam.gserviceaccount.com',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  token_uri: 'http://127.0.0.1:9/token',
});

const post = (body: Record<string, unknown>, token = tenant.token) =>
  server.request('POST', '/api/queueIntegration', { token, body });

describe('queue integrations CRUD', () => {
  it('validates each type (spec 3 §5) and answers 400 with the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'n8n', name: 'x' }, 'name'],
      [{ type: 'n8n', name: unique('n') }, 'urlN8N'],
      [{ type: 'webhook', name: unique('w'), urlN8N: 'ftp://host' }, 'urlN8N'],
      [{ type: 'typebot', name: unique('t'), urlN8N: 'https://typebot.example' }, 'typebotSlug'],
      [{ type: 'dialogflow', name: unique('d'), jsonContent: serviceAccount }, 'projectName'],
      [{ type: 'dialogflow', name: unique('d'), projectName: 'p', jsonContent: 'not json' }, 'jsonContent'],
      [{ type: 'zapier', name: unique('z') }, 'type'],
    ];
    for (const [body, path] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(
      await sql('select count(*)::int n from queue_integrations where company_id = $1', [tenant.companyId]),
    ).toEqual([{ n: 0 }]);
  });

  it('creates, lists, reads, updates and deletes, with events to the admins and secrets masked', async () => {
    const socket = await openSocket(server, tenant.token);
    const heard = recordEvents(socket);
    const name = unique('Agent');
    const created = await post({
      type: 'dialogflow',
      name,
      projectName: 'my-project',
      jsonContent: serviceAccount,
      language: 'es',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'dialogflow', name, projectName: 'my-project', language: 'es' });
    expect(created.body.jsonContent).toContain('••');
    expect(created.body.jsonContent).not.toContain('PRIVATE KEY');
    const [stored] = await sql('select json_content from queue_integrations where id = $1', [created.body.id]);
    expect(stored.json_content).toMatch(/^enc:v1:/);
    await heard.waitFor(
      `company-${tenant.companyId}-queueIntegration`,
      (p) => p.action === 'create' && p.queueIntegration.id === created.body.id,
    );

    const list = await server.request('GET', '/api/queueIntegration', {
      token: tenant.token,
      query: { searchParam: name.slice(0, 8).toUpperCase() },
    });
    expect(list.status).toBe(200);
    expect(list.body.queueIntegrations.map((i: { id: number }) => i.id)).toEqual([created.body.id]);
    expect(list.body.hasMore).toBe(false);

    // the masked JSON sent back keeps the stored one; the ancestor's extra fields are ignored
    const updated = await server.request('PUT', `/api/queueIntegration/${created.body.id}`, {
      token: tenant.token,
      body: { ...created.body, projectName: 'other-project', companyId: 999 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.projectName).toBe('other-project');
    const [after] = await sql('select json_content, company_id from queue_integrations where id = $1', [
      created.body.id,
    ]);
    expect(after).toEqual({ json_content: stored.json_content, company_id: tenant.companyId });
    await heard.waitFor(`company-${tenant.companyId}-queueIntegration`, (p) => p.action === 'update');

    const one = await server.request('GET', `/api/queueIntegration/${created.body.id}`, { token: tenant.token });
    expect(one.body).toMatchObject({ id: created.body.id, projectName: 'other-project' });

    const del = await server.request('DELETE', `/api/queueIntegration/${created.body.id}`, { token: tenant.token });
    expect(del.status).toBe(200);
    await heard.waitFor(
      `company-${tenant.companyId}-queueIntegration`,
      (p) => p.action === 'delete' && p.integrationId === created.body.id,
    );
    const gone = await server.request('GET', `/api/queueIntegration/${created.body.id}`, { token: tenant.token });
    expect(gone).toMatchObject({ status: 404, body: { error: 'ERR_NO_INTEGRATION_FOUND' } });
    socket.disconnect();
  });

  it('names are unique per company, case-insensitively; a webhook gets a generated key, kept when masked', async () => {
    const name = unique('Hook');
    const first = await post({ type: 'webhook', name, urlN8N: 'https://hooks.example/in' });
    expect(first.status).toBe(201);
    expect(first.body.webhookSecret).toContain('••');
    const dup = await post({ type: 'n8n', name: name.toUpperCase(), urlN8N: 'https://n8n.example' });
    expect(dup).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_INTEGRATION' } });
    const other = await server.createTenant();
    expect((await post({ type: 'webhook', name, urlN8N: 'https://x.example' }, other.token)).status).toBe(201);
    const [before] = await sql('select webhook_secret from queue_integrations where id = $1', [first.body.id]);
    expect(before.webhook_secret).toMatch(/^enc:v1:/);
    await server.request('PUT', `/api/queueIntegration/${first.body.id}`, { token: tenant.token, body: first.body });
    const [kept] = await sql('select webhook_secret from queue_integrations where id = $1', [first.body.id]);
    expect(kept.webhook_secret).toBe(before.webhook_secret);
    await server.request('PUT', `/api/queueIntegration/${first.body.id}`, {
      token: tenant.token,
      body: { ...first.body, webhookSecret: 'my-own-secret-value' },
    });
    const [changed] = await sql('select webhook_secret from queue_integrations where id = $1', [first.body.id]);
    expect(changed.webhook_secret).not.toBe(before.webhook_secret);
  });

  it('a flowbuilder integration names a flow of the same company', async () => {
    const other = await server.createTenant();
    const [theirs] = await sql('insert into flow_builders (company_id, name) values ($1, $2) returning id', [
      other.companyId,
      unique('Flow'),
    ]);
    const [mine] = await sql('insert into flow_builders (company_id, name) values ($1, $2) returning id', [
      tenant.companyId,
      unique('Flow'),
    ]);
    // no flow: the connection's own flows run (the ancestor's dialog never sends one)
    const bare = await post({ type: 'flowbuilder', name: unique('F') });
    expect(bare).toMatchObject({ status: 201, body: { type: 'flowbuilder', flowId: null } });
    const refused = await post({ type: 'flowbuilder', name: unique('F'), flowId: theirs.id });
    // another company's flow answers as a missing one: the flow's not-found code, naming the field
    expect(refused).toMatchObject({
      status: 404,
      body: { error: 'ERR_NO_FLOW_FOUND', details: [{ path: 'flowId', message: 'invalid' }] },
    });
    const ok = await post({ type: 'flowbuilder', name: unique('F'), flowId: String(mine.id) });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ type: 'flowbuilder', flowId: mine.id, urlN8N: '' });
  });

  it('agents read the list but not write; without useIntegrations the list is empty and writes are refused', async () => {
    const agent = await createLoggedUser(server, tenant, { profile: 'user' });
    expect((await server.request('GET', '/api/queueIntegration', { token: agent.token })).status).toBe(200);
    const denied = await post({ type: 'n8n', name: unique('n'), urlN8N: 'https://n8n.example' }, agent.token);
    expect(denied.status).toBe(403);

    const t = await server.createTenant();
    await post({ type: 'n8n', name: unique('n'), urlN8N: 'https://n8n.example' }, t.token);
    const superUser = await server.superLogin();
    const plan = await createPlan(server, superUser.token, { useIntegrations: false });
    await server.request('PUT', `/api/companies/${t.companyId}`, { token: superUser.token, body: { planId: plan.id } });
    const again = await server.login(t.email, t.password);
    const list = await server.request('GET', '/api/queueIntegration', { token: again.token });
    expect(list).toMatchObject({ status: 200, body: { queueIntegrations: [], count: 0, hasMore: false } });
    const off = await post({ type: 'n8n', name: unique('n'), urlN8N: 'https://n8n.example' }, again.token);
    expect(off).toMatchObject({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
  });
});
