import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of Asaas's API v3 on loopback (a real node:http server), answering the calls the checkout makes as
 * Asaas documents them, all behind the `access_token` header:
 *
 * - `GET /v3/customers?cpfCnpj=…` → `{object: 'list', data: [customer]}`; `POST /v3/customers` → customer `{id}`;
 * - `POST /v3/payments` (`billingType: 'PIX'`) → payment `{id, status: 'PENDING', value, …}`;
 * - `GET /v3/payments/{id}/pixQrCode` → `{encodedImage, payload, expirationDate}`;
 * - a wrong key: 401 `{errors: [{code: 'invalid_access_token', …}]}`; `failNext` answers the next calls 500.
 *
 * As the far side it POSTs the payment webhook (`{event, payment}`, header `asaas-access-token`) to a URL.
 * Another process (the browser tests) drives it through `GET /__control/payments` (the charges made) and
 * `POST /__control/fire` `{paymentId, event?}` (the webhook to the `webhook` target given at start).
 */
export type TFakeAsaas = Awaited<ReturnType<typeof startFakeAsaas>>;

type TCustomer = { id: string; name: string; cpfCnpj: string; email?: string; externalReference?: string };
type TPayment = {
  id: string;
  customer: string;
  billingType: string;
  value: number;
  dueDate: string;
  description?: string;
  externalReference?: string;
  status: string;
};

/** a 1×1 PNG */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export const startFakeAsaas = async (
  opts: { apiKey?: string; webhook?: { url: string; token: string }; port?: number } = {},
) => {
  const apiKey = opts.apiKey ?? `$aact_${randomBytes(8).toString('hex')}`;
  const customers = new Map<string, TCustomer>();
  const payments = new Map<string, TPayment>();
  const calls: { method: string; path: string; body?: any }[] = [];
  let failures = 0;

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? JSON.parse(raw) : undefined;
      if (url.pathname === '/__control/payments' && req.method === 'GET') {
        return send(res, 200, [...payments.values()]);
      }
      if (url.pathname === '/__control/fire' && req.method === 'POST' && opts.webhook) {
        const { url: target, token } = opts.webhook;
        void fireWebhook(target, String(body?.paymentId), { token, event: body?.event }).then(
          (answer) => send(res, 200, answer),
          (err: Error) => send(res, 502, { error: err.message }),
        );
        return;
      }
      calls.push({ method: req.method ?? '', path: url.pathname + url.search, body });
      if (req.headers.access_token !== apiKey) {
        return send(res, 401, {
          errors: [{ code: 'invalid_access_token', description: 'A chave de API fornecida é inválida' }],
        });
      }
      if (failures > 0) {
        failures -= 1;
        return send(res, 500, { errors: [{ code: 'internal', description: 'Erro interno' }] });
      }
      const path = url.pathname.replace(/^\/v3/, '');
      if (req.method === 'GET' && path === '/customers') {
        const cpfCnpj = url.searchParams.get('cpfCnpj');
        const data = [...customers.values()].filter((c) => !cpfCnpj || c.cpfCnpj === cpfCnpj);
        return send(res, 200, { object: 'list', hasMore: false, totalCount: data.length, limit: 10, offset: 0, data });
      }
      if (req.method === 'POST' && path === '/customers') {
        if (!body?.name || !body?.cpfCnpj) {
          return send(res, 400, { errors: [{ code: 'invalid_object', description: 'name and cpfCnpj required' }] });
        }
        const customer = { id: `cus_${randomBytes(6).toString('hex')}`, ...body, object: 'customer' };
        customers.set(customer.id, customer);
        return send(res, 200, customer);
      }
      if (req.method === 'POST' && path === '/payments') {
        if (!customers.has(body?.customer) || body?.billingType !== 'PIX' || !(body?.value > 0) || !body?.dueDate) {
          return send(res, 400, { errors: [{ code: 'invalid_object', description: 'invalid payment' }] });
        }
        const payment: TPayment = { id: `pay_${randomBytes(6).toString('hex')}`, status: 'PENDING', ...body };
        payments.set(payment.id, payment);
        return send(res, 200, { object: 'payment', ...payment });
      }
      const qr = /^\/payments\/([^/]+)\/pixQrCode$/.exec(path);
      if (req.method === 'GET' && qr) {
        const payment = payments.get(qr[1]);
        if (!payment) return send(res, 404, { errors: [{ code: 'not_found', description: 'not found' }] });
        return send(res, 200, {
          encodedImage: PNG,
          payload: `00020101021226820014br.gov.bcb.pix2560fake.asaas/${payment.id}5204000053039865406${payment.value.toFixed(2)}6304ABCD`,
          expirationDate: '2099-12-31 23:59:59',
        });
      }
      return send(res, 404, { errors: [{ code: 'not_found', description: 'not found' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;

  /** Asaas's webhook for one payment: `{event, payment}` with `asaas-access-token` */
  const fireWebhook = async (
    target: string,
    paymentId: string,
    opts: { token?: string; event?: string } = {},
  ): Promise<{ status: number; body: any }> => {
    const payment = payments.get(paymentId);
    if (payment && (opts.event ?? 'PAYMENT_RECEIVED') !== 'PAYMENT_CREATED') payment.status = 'RECEIVED';
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(opts.token ? { 'asaas-access-token': opts.token } : {}) },
      body: JSON.stringify({
        id: `evt_${randomBytes(6).toString('hex')}`,
        event: opts.event ?? 'PAYMENT_RECEIVED',
        dateCreated: new Date().toISOString().slice(0, 19).replace('T', ' '),
        payment: { object: 'payment', ...(payment ?? { id: paymentId }), billingType: 'PIX' },
      }),
    });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }

    return { status: res.status, body };
  };

  return {
    url,
    apiKey,
    customers,
    payments,
    calls,
    failNext: (n = 1) => {
      failures = n;
    },
    fireWebhook,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
