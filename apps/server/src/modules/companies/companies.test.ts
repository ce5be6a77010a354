import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createLoggedUser, type TTenant, unique } from '../../../test/fixtures';
import { startTestServer, type TTestServer } from '../../../test/harness';

let server: TTestServer;
let superToken: string;
let planId: number;
beforeAll(async () => {
  server = await startTestServer();
  superToken = (await server.superLogin()).token;
  planId = (await server.request('GET', '/api/plans/list')).body[0].id;
});
afterAll(() => server.close());

const dayInSaoPaulo = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Sao_Paulo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(ms));
const DAY = 86_400_000;
const signUpBody = (fields: Record<string, unknown> = {}) => ({
  name: unique('Acme'),
  email: `${unique('owner')}@example.com`,
  password: 'secret1',
  phone: '(11) 99999-8888',
  planId,
  ...fields,
});
const detailPaths = (body: { details?: { path: string }[] }) => (body.details ?? []).map((d) => d.path);

describe('POST /companies/cadastro (public sign-up)', () => {
  it('creates the company with a 3-day trial computed by the server, ignoring dueDate/status/recurrence of the body', async () => {
    const before = Date.now();
    const body = signUpBody({
      dueDate: '2099-12-31',
      status: false,
      recurrence: 'ANUAL',
      trialExpiration: '2099-12-31',
    });
    const res = await server.request('POST', '/api/companies/cadastro', { body });
    const after = Date.now();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: body.name,
      email: body.email,
      phone: '11999998888',
      planId,
      status: true,
      recurrence: 'MENSAL',
    });
    expect([dayInSaoPaulo(before + 3 * DAY), dayInSaoPaulo(after + 3 * DAY)]).toContain(res.body.dueDate);
    const trial = Date.parse(res.body.trialExpiration);
    expect(trial).toBeGreaterThanOrEqual(before + 3 * DAY - 1000);
    expect(trial).toBeLessThanOrEqual(after + 3 * DAY + 1000);
  });

  it('creates the first admin, who can log in', async () => {
    const body = signUpBody();
    const res = await server.request('POST', '/api/companies/cadastro', { body });
    expect(res.status).toBe(201);
    const session = await server.login(body.email.toUpperCase(), body.password);
    expect(session.user).toMatchObject({ email: body.email, profile: 'admin', super: false, companyId: res.body.id });
  });

  it.each([
    ['short name', { name: 'A' }, 'name', 'tooShort'],
    ['bad e-mail', { email: 'not-an-email' }, 'email', 'invalidEmail'],
    ['short password', { password: '1234' }, 'password', 'tooShort'],
    ['phone with 9 digits', { phone: '(11) 9999-999' }, 'phone', 'tooShort'],
    ['phone with 12 digits', { phone: '(11) 99999-88881' }, 'phone', 'tooLong'],
    ['missing plan', { planId: undefined }, 'planId', undefined],
  ])('refuses a %s with 400 ERR_VALIDATION and the field in details', async (_label, fields, path, message) => {
    const body = signUpBody(fields);
    const res = await server.request('POST', '/api/companies/cadastro', { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    const detail = res.body.details.find((d: { path: string }) => d.path === path);
    expect(detail, JSON.stringify(res.body.details)).toBeDefined();
    if (message) expect(detail.message).toBe(message);
    expect(await countRows(server, 'select count(*) as n from companies where name = $1', [body.name])).toBe(0);
  });

  it('answers 404 ERR_NO_PLAN_FOUND for an unknown plan', async () => {
    const body = signUpBody({ planId: 987654 });
    const res = await server.request('POST', '/api/companies/cadastro', { body });
    expect(res).toMatchObject({ status: 404, body: { error: 'ERR_NO_PLAN_FOUND' } });
    expect(await countRows(server, 'select count(*) as n from companies where name = $1', [body.name])).toBe(0);
  });

  it('answers 409 ERR_DUPLICATED_COMPANY for a company name in use, whatever its case', async () => {
    const first = signUpBody();
    expect((await server.request('POST', '/api/companies/cadastro', { body: first })).status).toBe(201);
    const res = await server.request('POST', '/api/companies/cadastro', {
      body: signUpBody({ name: first.name.toUpperCase() }),
    });
    expect(res).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_COMPANY' } });
  });

  it('answers 409 ERR_DUPLICATED_EMAIL for an e-mail in use and leaves no company behind', async () => {
    const first = signUpBody();
    expect((await server.request('POST', '/api/companies/cadastro', { body: first })).status).toBe(201);
    const companiesBefore = await countRows(server, 'select count(*) as n from companies');
    const usersBefore = await countRows(server, 'select count(*) as n from users');
    const second = signUpBody({ email: first.email.toUpperCase() });
    const res = await server.request('POST', '/api/companies/cadastro', { body: second });
    expect(res).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_EMAIL' } });
    expect(await countRows(server, 'select count(*) as n from companies where name = $1', [second.name])).toBe(0);
    expect(await countRows(server, 'select count(*) as n from companies')).toBe(companiesBefore);
    expect(await countRows(server, 'select count(*) as n from users')).toBe(usersBefore);
  });
});

describe('companies as super user', () => {
  it(
    'lists with search, 20 per page, hasMore and count; /companies/list answers all',
    { timeout: 120_000 },
    async () => {
      const prefix = unique('Paged');
      for (let i = 0; i < 21; i += 1) {
        const res = await server.request('POST', '/api/companies', {
          token: superToken,
          body: {
            name: `${prefix} ${String(i).padStart(2, '0')}`,
            email: `${unique('p')}@example.com`,
            planId,
            password: 'secret1',
          },
        });
        expect(res.status).toBe(201);
      }
      const page1 = await server.request('GET', '/api/companies', {
        token: superToken,
        query: { searchParam: prefix.toUpperCase() },
      });
      expect(page1.status).toBe(200);
      expect(page1.body).toMatchObject({ count: 21, hasMore: true });
      expect(page1.body.companies).toHaveLength(20);
      expect(page1.body.companies.every((c: { name: string }) => c.name.startsWith(prefix))).toBe(true);
      const page2 = await server.request('GET', '/api/companies', {
        token: superToken,
        query: { searchParam: prefix, pageNumber: 2 },
      });
      expect(page2.body).toMatchObject({ count: 21, hasMore: false });
      expect(page2.body.companies).toHaveLength(1);
      const names = [...page1.body.companies, ...page2.body.companies].map((c: { name: string }) => c.name);
      expect(new Set(names).size).toBe(21);

      const none = await server.request('GET', '/api/companies', {
        token: superToken,
        query: { searchParam: unique('nothing') },
      });
      expect(none.body).toEqual({ companies: [], count: 0, hasMore: false });

      const all = await server.request('GET', '/api/companies/list', { token: superToken });
      expect(all.status).toBe(200);
      expect(all.body.filter((c: { name: string }) => c.name.startsWith(prefix))).toHaveLength(21);
    },
  );

  it('creates a company (201) with its first admin; a generated password is answered once', async () => {
    const body = {
      name: unique('Made'),
      email: `${unique('made')}@example.com`,
      planId,
      recurrence: 'TRIMESTRAL',
      dueDate: '2031-02-03',
    };
    const res = await server.request('POST', '/api/companies', { token: superToken, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: body.name,
      recurrence: 'TRIMESTRAL',
      dueDate: '2031-02-03',
      trialExpiration: null,
    });
    expect(res.body.adminPassword).toEqual(expect.any(String));
    const admin = await server.login(body.email, res.body.adminPassword);
    expect(admin.user).toMatchObject({ profile: 'admin', companyId: res.body.id });

    const shown = await server.request('GET', `/api/companies/${res.body.id}`, { token: superToken });
    expect(shown).toMatchObject({ status: 200, body: { id: res.body.id, name: body.name, plan: { id: planId } } });
    expect(shown.body.adminPassword).toBeUndefined();
  });

  it('answers 404 ERR_NO_COMPANY_FOUND for a missing company', async () => {
    for (const [method, path] of [
      ['GET', '/api/companies/2000000000'],
      ['PUT', '/api/companies/2000000000'],
      ['DELETE', '/api/companies/2000000000'],
    ]) {
      const res = await server.request(method, path, {
        token: superToken,
        body: method === 'PUT' ? { name: unique('N') } : undefined,
      });
      expect(res, `${method} ${path}`).toMatchObject({ status: 404, body: { error: 'ERR_NO_COMPANY_FOUND' } });
    }
  });

  it('updates only the fields sent; an empty or invalid dueDate is stored as null', async () => {
    const tenant = await server.createTenant();
    const path = `/api/companies/${tenant.companyId}`;
    const set = await server.request('PUT', path, {
      token: superToken,
      body: { recurrence: 'ANUAL', status: false, campaignsEnabled: false, dueDate: '2030-05-01' },
    });
    expect(set).toMatchObject({
      status: 200,
      body: { recurrence: 'ANUAL', status: false, campaignsEnabled: false, dueDate: '2030-05-01' },
    });
    // a later update of one field keeps every other one
    const renamed = await server.request('PUT', path, {
      token: superToken,
      body: { name: `${tenant.company.name} 2` },
    });
    expect(renamed).toMatchObject({
      status: 200,
      body: {
        name: `${tenant.company.name} 2`,
        recurrence: 'ANUAL',
        status: false,
        campaignsEnabled: false,
        dueDate: '2030-05-01',
      },
    });

    for (const dueDate of ['', 'not-a-date', null]) {
      await server.request('PUT', path, { token: superToken, body: { dueDate: '2030-05-01' } });
      const res = await server.request('PUT', path, { token: superToken, body: { dueDate } });
      expect(res.status).toBe(200);
      expect(res.body.dueDate, String(dueDate)).toBeNull();
    }
  });

  it('refuses to rename to another company name (409) or move to a missing plan (404)', async () => {
    const a = await server.createTenant();
    const b = await server.createTenant();
    const res = await server.request('PUT', `/api/companies/${a.companyId}`, {
      token: superToken,
      body: { name: b.company.name.toLowerCase() },
    });
    expect(res).toMatchObject({ status: 409, body: { error: 'ERR_DUPLICATED_COMPANY' } });
    const plan = await server.request('PUT', `/api/companies/${a.companyId}`, {
      token: superToken,
      body: { planId: 1999999 },
    });
    expect(plan).toMatchObject({ status: 404, body: { error: 'ERR_NO_PLAN_FOUND' } });
    const kept = await server.request('GET', `/api/companies/${a.companyId}`, { token: superToken });
    expect(kept.body).toMatchObject({ name: a.company.name, planId });
  });

  it('deletes a company (204): its users can no longer log in nor use their sessions', async () => {
    const tenant = await server.createTenant();
    const user = await createLoggedUser(server, tenant);
    const res = await server.request('DELETE', `/api/companies/${tenant.companyId}`, { token: superToken });
    expect(res.status).toBe(204);
    expect((await server.request('GET', `/api/companies/${tenant.companyId}`, { token: superToken })).status).toBe(404);
    for (const [email, password] of [
      [tenant.email, tenant.password],
      [user.email, user.password],
    ]) {
      const login = await server.request('POST', '/api/auth/login', { body: { email, password } });
      expect(login).toMatchObject({ status: 401, body: { error: 'ERR_USER_DONT_EXISTS' } });
    }
    expect((await server.request('GET', '/api/auth/me', { token: tenant.token })).status).toBe(401);
    expect(await countRows(server, 'select count(*) as n from users where company_id = $1', [tenant.companyId])).toBe(
      0,
    );
  });

  it('refuses to delete its own company (409)', async () => {
    const me = await server.request('GET', '/api/auth/me', { token: superToken });
    const res = await server.request('DELETE', `/api/companies/${me.body.companyId}`, { token: superToken });
    expect(res).toMatchObject({ status: 409, body: { error: 'ERR_CANNOT_DELETE_OWN_COMPANY' } });
    expect((await server.request('GET', `/api/companies/${me.body.companyId}`, { token: superToken })).status).toBe(
      200,
    );
  });
});

describe('companies as a tenant', () => {
  let tenant: TTenant;
  let other: TTenant;
  let user: Awaited<ReturnType<typeof createLoggedUser>>;
  beforeAll(async () => {
    tenant = await server.createTenant();
    other = await server.createTenant();
    user = await createLoggedUser(server, tenant);
  });

  it('an admin gets 403 ERR_NO_PERMISSION on every super route and changes nothing', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/companies'],
      ['GET', '/api/companies/list'],
      ['POST', '/api/companies', { name: unique('Sneaky'), email: `${unique('s')}@example.com`, planId }],
      ['PUT', `/api/companies/${tenant.companyId}`, { dueDate: '2099-12-31' }],
      ['DELETE', `/api/companies/${other.companyId}`],
    ];
    for (const [method, path, body] of routes) {
      const res = await server.request(method, path, { token: tenant.token, body });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    }
    const own = await server.request('GET', `/api/companies/${tenant.companyId}`, { token: tenant.token });
    expect(own.body.dueDate).toBe(tenant.company.dueDate);
    expect((await server.request('GET', `/api/companies/${other.companyId}`, { token: superToken })).status).toBe(200);
  });

  it('GET /companies/:id: own company for its admin, 404 for another, 403 for a non-admin', async () => {
    const own = await server.request('GET', `/api/companies/${tenant.companyId}`, { token: tenant.token });
    expect(own).toMatchObject({ status: 200, body: { id: tenant.companyId, name: tenant.company.name } });
    const foreign = await server.request('GET', `/api/companies/${other.companyId}`, { token: tenant.token });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'ERR_NO_COMPANY_FOUND' } });
    const asUser = await server.request('GET', `/api/companies/${tenant.companyId}`, { token: user.token });
    expect(asUser).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
  });

  it('PUT /companies/:id/schedules: own company only, HH:mm times, admins only', async () => {
    const schedules = [
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:30' },
      { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '09:00', endTime: '12:00' },
    ];
    const path = `/api/companies/${tenant.companyId}/schedules`;
    const ok = await server.request('PUT', path, { token: tenant.token, body: { schedules } });
    expect(ok).toMatchObject({ status: 200, body: { id: tenant.companyId, schedules } });

    for (const bad of ['8:00', '24:00', '12:60', '1200']) {
      const res = await server.request('PUT', path, {
        token: tenant.token,
        body: { schedules: [{ ...schedules[0], startTime: bad }] },
      });
      expect(res.status, bad).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(detailPaths(res.body)).toContain('schedules.0.startTime');
    }

    const foreign = await server.request('PUT', `/api/companies/${other.companyId}/schedules`, {
      token: tenant.token,
      body: { schedules },
    });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'ERR_NO_COMPANY_FOUND' } });
    const asUser = await server.request('PUT', path, { token: user.token, body: { schedules: [] } });
    expect(asUser).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });

    expect(
      (await server.request('GET', path.replace('/schedules', ''), { token: tenant.token })).body.schedules,
    ).toEqual(schedules);
    expect(
      (await server.request('GET', `/api/companies/${other.companyId}`, { token: superToken })).body.schedules,
    ).toEqual([]);
  });

  it('GET /companies/listPlan/:companyId: the own company plan for any of its users, 404 for another', async () => {
    for (const token of [tenant.token, user.token]) {
      const res = await server.request('GET', `/api/companies/listPlan/${tenant.companyId}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: tenant.companyId,
        plan: { id: planId, useCampaigns: true, users: expect.any(Number) },
      });
    }
    const foreign = await server.request('GET', `/api/companies/listPlan/${other.companyId}`, { token: tenant.token });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'ERR_NO_COMPANY_FOUND' } });
  });
});
