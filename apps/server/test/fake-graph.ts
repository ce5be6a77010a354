import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signBody } from '../src/channels/cloud-api/signature';

/**
 * A fake of Meta's Graph API on loopback (a real node:http server) speaking the documented formats of the
 * WhatsApp Cloud API, and the far side of its webhooks:
 *
 * - `GET /{v}/{phone-number-id}` → `{display_phone_number, verified_name, id}` (the driver's check);
 * - `POST /{v}/{phone-number-id}/messages` → `{messaging_product, contacts:[{input, wa_id}], messages:[{id}]}`,
 *   or `{success: true}` for a read receipt (`status: "read"`);
 * - `POST /{v}/{phone-number-id}/media` (multipart) → `{id}`;
 * - `GET /{v}/{media-id}` → `{url, mime_type, sha256, file_size, id}`; `GET url` with the bearer → bytes;
 * - errors as Graph answers them: `{error: {message, type, code, error_data, fbtrace_id}}` (190 bad token,
 *   131026 undeliverable, 130429 throughput, 1 unknown), and controllable faults for the next N calls.
 *
 * As the far side it signs webhooks with the number's app secret (X-Hub-Signature-256) and POSTs them to
 * the number's webhook URL: customer messages of every type and statuses (sent → delivered → read, or
 * failed with `errors[{code, title}]`), automatically after each send when `autoStatuses` is on.
 */

export type TFakeNumber = {
  phoneNumberId: string;
  displayPhoneNumber: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  /** Meta accepts the token (false: 401 code 190 on everything) */
  tokenValid: boolean;
  webhookUrl?: string;
  /** sent then delivered after each accepted send */
  autoStatuses: boolean;
};

export type TFakeSent = {
  phoneNumberId: string;
  wamid: string;
  to: string;
  type: string;
  /** the request body as sent */
  body: Record<string, any>;
  status: 'accepted' | 'sent' | 'delivered' | 'read' | 'failed';
};

export type TFault =
  | { kind: 'status'; status: 429 | 500 | 503; retryAfter?: number }
  | { kind: 'hang' }
  | { kind: 'graph'; status: number; code: number; message: string; details?: string };

type TMedia = { phoneNumberId: string; data: Buffer; mimetype: string; sha256: string };

export type TFakeGraph = Awaited<ReturnType<typeof startFakeGraph>>;

const fbtrace = () => randomBytes(8).toString('base64url');

const graphError = (code: number, message: string, details?: string, type = 'OAuthException') => ({
  error: {
    message,
    type,
    code,
    ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
    fbtrace_id: fbtrace(),
  },
});

/** minimal multipart/form-data reader: name → {data, filename, type} */
const readMultipart = (body: Buffer, contentType: string) => {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const parts = new Map<string, { data: Buffer; filename?: string; type?: string }>();
  if (!boundary) return parts;
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let start = body.indexOf(marker);
  while (start >= 0) {
    const next = body.indexOf(marker, start + marker.length);
    if (next < 0) break;
    const chunk = body.subarray(start + marker.length + 2, next - 2);
    const split = chunk.indexOf('\r\n\r\n');
    if (split >= 0) {
      const head = chunk.subarray(0, split).toString('utf8');
      const name = /name="([^"]*)"/i.exec(head)?.[1];
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1];
      if (name) parts.set(name, { data: chunk.subarray(split + 4), filename, type });
    }
    start = next;
  }

  return parts;
};

const readBody = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export const startFakeGraph = async (opts: { version?: string } = {}) => {
  const version = opts.version ?? 'v21.0';
  const numbers = new Map<string, TFakeNumber>();
  const media = new Map<string, TMedia>();
  const sent: TFakeSent[] = [];
  const reads: { phoneNumberId: string; messageId: string }[] = [];
  const calls: { method: string; path: string }[] = [];
  const faults: { fault: TFault; match?: RegExp }[] = [];
  /** numbers that are not WhatsApp accounts: sends answer 131026 */
  const unknownRecipients = new Set<string>();
  const hanging = new Set<http.ServerResponse>();
  let url = '';

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const bearer = (req: http.IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];

  /** the number whose token the request carries, or the 401 Graph answers */
  const authorise = (req: http.IncomingMessage, res: http.ServerResponse, number: TFakeNumber | undefined) => {
    if (!number || bearer(req) !== number.accessToken || !number.tokenValid) {
      send(res, 401, graphError(190, 'Invalid OAuth access token - Cannot parse access token'));
      return false;
    }

    return true;
  };

  const takeFault = (path: string) => {
    const index = faults.findIndex((f) => !f.match || f.match.test(path));

    return index >= 0 ? faults.splice(index, 1)[0].fault : undefined;
  };

  const statusesLater = (number: TFakeNumber, message: TFakeSent) => {
    if (!number.autoStatuses || !number.webhookUrl) return;
    // like Meta: the network, then the phone, in this order, a moment after the answer
    setTimeout(async () => {
      try {
        await setStatus(number.phoneNumberId, message.wamid, 'sent');
        await setStatus(number.phoneNumberId, message.wamid, 'delivered');
      } catch {
        // the receiver is gone (test over)
      }
    }, 30).unref();
  };

  const onMessages = (number: TFakeNumber, body: Record<string, any>, res: http.ServerResponse) => {
    if (body.messaging_product !== 'whatsapp') {
      return send(res, 400, graphError(100, '(#100) The parameter messaging_product is required.', undefined));
    }
    if (body.status === 'read') {
      reads.push({ phoneNumberId: number.phoneNumberId, messageId: String(body.message_id) });
      return send(res, 200, { success: true });
    }
    const to = String(body.to ?? '').replace(/\D/g, '');
    if (!to || !body.type || !body[body.type]) {
      return send(res, 400, graphError(100, '(#100) Invalid parameter', 'to, type and its object are required'));
    }
    if (unknownRecipients.has(to)) {
      return send(res, 400, graphError(131026, '(#131026) Message Undeliverable.', 'Message Undeliverable.'));
    }
    for (const kind of ['image', 'video', 'audio', 'document', 'sticker']) {
      const ref = body.type === kind ? body[kind] : undefined;
      if (ref?.id && !media.has(String(ref.id))) {
        return send(res, 400, graphError(131053, '(#131053) Media upload error', 'Unknown media id'));
      }
    }
    const message: TFakeSent = {
      phoneNumberId: number.phoneNumberId,
      wamid: `wamid.${randomBytes(18).toString('base64url')}`,
      to,
      type: String(body.type),
      body,
      status: 'accepted',
    };
    sent.push(message);
    send(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: String(body.to), wa_id: to }],
      messages: [{ id: message.wamid }],
    });
    statusesLater(number, message);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    calls.push({ method: req.method ?? 'GET', path });
    const raw = await readBody(req);
    // the media bytes: GET {url}/download/{media-id} with the bearer token
    const download = /^\/download\/([\w-]+)$/.exec(path);
    if (download && req.method === 'GET') {
      const file = media.get(download[1]);
      if (!file) return send(res, 404, graphError(100, 'Unknown media'));
      if (!authorise(req, res, numbers.get(file.phoneNumberId))) return;
      const fault = takeFault(path);
      if (fault) return applyFault(fault, res);
      res.writeHead(200, { 'content-type': file.mimetype, 'content-length': String(file.data.length) });
      return res.end(file.data);
    }
    const parts = path.split('/').filter(Boolean);
    if (parts[0] !== version) return send(res, 400, graphError(2635, `(#2635) Unknown API version ${parts[0]}`));
    const fault = takeFault(path);
    if (fault) return applyFault(fault, res);
    const [, id, edge] = parts;
    const number = numbers.get(id);
    if (number && !edge && req.method === 'GET') {
      if (!authorise(req, res, number)) return;
      return send(res, 200, {
        display_phone_number: number.displayPhoneNumber,
        verified_name: 'Zelo Test',
        id: number.phoneNumberId,
      });
    }
    if (number && edge === 'messages' && req.method === 'POST') {
      if (!authorise(req, res, number)) return;
      let body: Record<string, any>;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return send(res, 400, graphError(100, '(#100) Invalid JSON'));
      }
      return onMessages(number, body, res);
    }
    if (number && edge === 'media' && req.method === 'POST') {
      if (!authorise(req, res, number)) return;
      const form = readMultipart(raw, req.headers['content-type'] ?? '');
      const file = form.get('file');
      if (form.get('messaging_product')?.data.toString() !== 'whatsapp' || !file) {
        return send(res, 400, graphError(100, '(#100) messaging_product and file are required'));
      }
      const mimetype = form.get('type')?.data.toString() || file.type || 'application/octet-stream';
      return send(res, 200, { id: addMedia(number.phoneNumberId, Buffer.from(file.data), mimetype) });
    }
    const stored = media.get(id);
    if (stored && !edge && req.method === 'GET') {
      if (!authorise(req, res, numbers.get(stored.phoneNumberId))) return;
      return send(res, 200, {
        messaging_product: 'whatsapp',
        url: `${url}/download/${id}`,
        mime_type: stored.mimetype,
        sha256: stored.sha256,
        file_size: stored.data.length,
        id,
      });
    }

    return send(res, 404, graphError(100, `(#100) Unsupported ${req.method} request: object ${id} does not exist`));
  };

  const applyFault = (fault: TFault, res: http.ServerResponse) => {
    if (fault.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (fault.kind === 'graph') return send(res, fault.status, graphError(fault.code, fault.message, fault.details));
    if (fault.status === 429) {
      return send(
        res,
        429,
        graphError(130429, '(#130429) Rate limit hit', 'Cloud API message throughput has been reached.'),
        fault.retryAfter !== undefined ? { 'retry-after': String(fault.retryAfter) } : {},
      );
    }
    send(res, fault.status, graphError(1, 'An unknown error occurred', undefined, 'OAuthException'));
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, graphError(1, String(err))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const addMedia = (phoneNumberId: string, data: Buffer, mimetype: string) => {
    const id = String(1_000_000_000_000 + Math.floor(Math.random() * 8_999_999_999_999));
    media.set(id, { phoneNumberId, data, mimetype, sha256: createHash('sha256').update(data).digest('hex') });

    return id;
  };

  const numberOf = (phoneNumberId: string) => {
    const number = numbers.get(phoneNumberId);
    if (!number) throw new Error(`fake graph: no number ${phoneNumberId}`);

    return number;
  };

  /** signs and POSTs a webhook payload to the number's webhook URL; answers the receiver's status and body */
  const deliver = async (
    phoneNumberId: string,
    payload: unknown,
    opts: { signature?: string | null; appSecret?: string; raw?: string; target?: string } = {},
  ) => {
    const number = numberOf(phoneNumberId);
    const target = opts.target ?? number.webhookUrl;
    if (!target) throw new Error('fake graph: no webhook URL');
    const raw = opts.raw ?? JSON.stringify(payload);
    const signature = opts.signature === undefined ? signBody(raw, opts.appSecret ?? number.appSecret) : opts.signature;
    const res = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
      },
      body: raw,
    });

    return { status: res.status, body: await res.text() };
  };

  /** the envelope of every webhook: one entry, one change of field "messages" */
  const envelope = (number: TFakeNumber, value: Record<string, unknown>) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: number.businessAccountId,
        changes: [
          {
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: number.displayPhoneNumber.replace(/\D/g, ''),
                phone_number_id: number.phoneNumberId,
              },
              ...value,
            },
            field: 'messages',
          },
        ],
      },
    ],
  });

  /** a customer message webhook; `message` holds `type` and its object (and `context` for a reply) */
  const messagePayload = (
    phoneNumberId: string,
    from: string,
    message: Record<string, unknown>,
    opts: { name?: string; id?: string; timestamp?: Date } = {},
  ) => {
    const id = opts.id ?? `wamid.${randomBytes(18).toString('base64url')}`;
    const payload = envelope(numberOf(phoneNumberId), {
      contacts: [{ profile: { name: opts.name ?? 'Customer' }, wa_id: from }],
      messages: [
        {
          from,
          id,
          timestamp: String(Math.floor((opts.timestamp ?? new Date()).getTime() / 1000)),
          ...message,
        },
      ],
    });

    return { id, payload };
  };

  const statusPayload = (
    phoneNumberId: string,
    wamid: string,
    status: 'sent' | 'delivered' | 'read' | 'failed' | 'played',
    opts: { recipient?: string; errors?: { code: number; title: string; details?: string }[] } = {},
  ) => {
    const message = sent.find((m) => m.wamid === wamid);
    const recipient = opts.recipient ?? message?.to ?? '0';

    return envelope(numberOf(phoneNumberId), {
      statuses: [
        {
          id: wamid,
          status,
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: recipient,
          ...(status === 'failed'
            ? {
                errors: (opts.errors ?? [{ code: 131000, title: 'Something went wrong' }]).map((e) => ({
                  code: e.code,
                  title: e.title,
                  message: e.title,
                  ...(e.details ? { error_data: { details: e.details } } : {}),
                })),
              }
            : {
                conversation: {
                  id: randomBytes(16).toString('hex'),
                  expiration_timestamp: String(Math.floor(Date.now() / 1000) + 86_400),
                  origin: { type: 'service' },
                },
                pricing: { billable: true, pricing_model: 'PMP', category: 'service' },
              }),
        },
      ],
    });
  };

  /** the customer's side changed: records it and tells the receiver */
  const setStatus = async (
    phoneNumberId: string,
    wamid: string,
    status: 'sent' | 'delivered' | 'read' | 'failed' | 'played',
    opts: { errors?: { code: number; title: string; details?: string }[] } = {},
  ) => {
    const message = sent.find((m) => m.wamid === wamid);
    if (message && status !== 'played') message.status = status;

    return deliver(phoneNumberId, statusPayload(phoneNumberId, wamid, status, opts));
  };

  return {
    url,
    version,
    sent,
    reads,
    calls,
    unknownRecipients,
    addNumber: (fields: Partial<TFakeNumber> & { phoneNumberId: string }) => {
      const number: TFakeNumber = {
        displayPhoneNumber: '+55 11 4000-1234',
        businessAccountId: '102290129340398',
        accessToken: `EAAG${randomBytes(24).toString('hex')}`,
        appSecret: randomBytes(16).toString('hex'),
        tokenValid: true,
        autoStatuses: false,
        ...fields,
      };
      numbers.set(number.phoneNumberId, number);

      return number;
    },
    number: numberOf,
    addMedia,
    /** replaces a media's bytes but not its recorded sha256 (a corrupted download) */
    tamperMedia: (id: string, data: Buffer) => {
      const file = media.get(id);
      if (file) file.data = data;
    },
    /** the next `times` matching calls answer the fault */
    fault: (fault: TFault, times = 1, match?: RegExp) => {
      for (let i = 0; i < times; i++) faults.push({ fault, match });
    },
    clearFaults: () => faults.splice(0),
    sentTo: (phoneNumberId: string, to: string) => sent.filter((m) => m.phoneNumberId === phoneNumberId && m.to === to),
    deliver,
    messagePayload,
    statusPayload,
    setStatus,
    /** a customer writes: builds, signs and delivers the webhook; answers its wamid */
    customerSends: async (
      phoneNumberId: string,
      from: string,
      message: Record<string, unknown>,
      opts: { name?: string; id?: string; timestamp?: Date } = {},
    ) => {
      const built = messagePayload(phoneNumberId, from, message, opts);
      const res = await deliver(phoneNumberId, built.payload);

      return { externalId: built.id, status: res.status };
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
