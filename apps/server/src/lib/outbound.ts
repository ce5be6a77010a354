import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../http/errors';
import { isPrivateAddress, unmapped } from './special-addresses';

/**
 * The one outbound path for every URL a tenant can aim (AI base URL, Azure speech, Typebot, n8n, webhooks,
 * Dialogflow, bot media, the Cloud API's Graph calls and media downloads): http/https only; the host
 * resolved and refused when any address is in a block that is not globally reachable (lib/special-addresses:
 * the IANA special-purpose registries, IPv4-mapped forms judged by their IPv4) — unless the operator allows
 * the host name, the address or its range in OUTBOUND_ALLOW_HOSTS. `outboundFetch` then connects to the very
 * address it checked (the lookup is pinned, so DNS rebinding cannot switch it), follows no redirect unless
 * asked (`redirect: 'follow'`: each hop re-resolved and re-checked, at most `maxRedirects`, the bearer
 * dropped across origins) and gives up after `timeoutMs`. No other module calls fetch or node:http(s) on
 * a tenant's URL (outbound-path.test.ts greps the source).
 *
 * A deny-list cannot know the server's own public address nor what the network around it exposes:
 * operators should firewall egress to their own public IP and metadata endpoints (README).
 */

export { isPrivateAddress };

type TAllowList = { hosts: Set<string>; ranges: BlockList };

const parseAllowList = (entries: string[]): TAllowList => {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const raw of entries) {
    const entry = raw
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    if (!entry) continue;
    const [addr, bits] = entry.split('/');
    const family = isIP(addr ?? '');
    if (family && bits !== undefined && /^\d+$/.test(bits)) {
      ranges.addSubnet(addr as string, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
    } else if (family) {
      ranges.addAddress(addr as string, family === 6 ? 'ipv6' : 'ipv4');
    } else {
      hosts.add(entry);
    }
  }

  return { hosts, ranges };
};

let allowList: TAllowList = parseAllowList([]);

/** buildApp sets the operator's OUTBOUND_ALLOW_HOSTS */
export const useOutboundAllowList = (entries: string[]) => {
  allowList = parseAllowList(entries);
};

const isAllowed = (host: string, address: string): boolean => {
  if (allowList.hosts.has(host) || allowList.hosts.has(address)) return true;
  const a = unmapped(address);
  if (allowList.hosts.has(a.address)) return true;

  return (
    allowList.ranges.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4') ||
    (a.address !== address && allowList.ranges.check(address, 'ipv6'))
  );
};

/**
 * true when the operator named this very host in OUTBOUND_ALLOW_HOSTS: the name itself, or (for an address
 * literal) the address or a range holding it. No DNS: a name is allowed by its name only.
 */
export const isAllowListedHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (allowList.hosts.has(host)) return true;

  return isIP(host) !== 0 && isAllowed(host, host);
};

const refuse = (reason: string) => new AppError('ERR_OUTBOUND_URL_REFUSED', `Outbound URL refused: ${reason}`);

export type TCheckedUrl = { url: URL; host: string; address: string; family: 4 | 6 };

/** parses and checks the URL; resolves its host; throws ERR_OUTBOUND_URL_REFUSED (400) */
export const assertOutboundUrl = async (input: string | URL): Promise<TCheckedUrl> => {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw refuse('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('only http and https');
  if (url.username || url.password) throw refuse('credentials in the URL');
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (!host) throw refuse('no host');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true });
    } catch {
      throw refuse('the host does not resolve');
    }
  }
  if (addresses.length === 0) throw refuse('the host does not resolve');
  for (const { address } of addresses) {
    if (isPrivateAddress(address) && !isAllowed(host, address)) throw refuse('private or reserved address');
  }
  const first = addresses[0] as { address: string; family: number };

  return { url, host, address: first.address, family: first.family === 6 ? 6 : 4 };
};

/** a call that did not get an answer: `timeout` or `network` (refused, reset, TLS, DNS, too large, redirects) */
export class OutboundError extends Error {
  readonly kind: 'timeout' | 'network';
  /** the answer was larger than `maxBytes` */
  readonly tooLarge: boolean;

  constructor(kind: 'timeout' | 'network', message: string, tooLarge = false) {
    super(message);
    this.kind = kind;
    this.tooLarge = tooLarge;
  }
}

export type TOutboundInit = RequestInit & {
  /** the whole call, redirects and answer body included; 10 s unless told */
  timeoutMs?: number;
  /** the largest answer body kept (25 MB unless told); more fails the call */
  maxBytes?: number;
  /** with `redirect: 'follow'`: the most hops followed (5 unless told), each one checked like the first */
  maxRedirects?: number;
};

const NO_BODY = new Set([101, 204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

type TOnce = {
  method: string;
  headers: Headers;
  body: RequestInit['body'];
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal | null;
};

/** one request to the checked address (pinned lookup), the whole answer read */
const requestOnce = async (checked: TCheckedUrl, once: TOnce): Promise<Response> => {
  const { method, timeoutMs, maxBytes, signal } = once;
  // the body serialised as fetch would (FormData → multipart with its boundary, objects → text)
  const prepared = new Request(checked.url, { method, headers: once.headers, body: once.body });
  const body = once.body == null ? undefined : Buffer.from(await prepared.arrayBuffer());
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  prepared.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers['content-length'] = String(body.length);
  const send = checked.url.protocol === 'https:' ? httpsRequest : httpRequest;

  return await new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      reject(err);
    };
    const req = send(checked.url, {
      method,
      headers,
      lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (opts?.all) cb(null, [{ address: checked.address, family: checked.family }]);
        else cb(null, checked.address, checked.family);
      }) as never,
    });
    const timer = setTimeout(() => {
      fail(new OutboundError('timeout', `no answer within ${timeoutMs} ms`));
      req.destroy();
    }, timeoutMs);
    const abort = () => {
      fail(new OutboundError('network', 'aborted'));
      req.destroy();
    };
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    req.on('error', (err) => fail(new OutboundError('network', err.message)));
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          fail(new OutboundError('network', 'answer too large', true));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (err) => fail(new OutboundError('network', err.message)));
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) for (const v of value) answerHeaders.append(name, v);
          else if (value !== undefined) answerHeaders.set(name, value);
        }
        const status = res.statusCode ?? 502;
        resolve(
          new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), {
            status: status < 200 ? 502 : status,
            statusText: res.statusMessage ?? '',
            headers: answerHeaders,
          }),
        );
      });
    });
    req.end(body);
  });
};

/**
 * fetch, through the guard: the checked address pinned, a timeout, and no redirect followed (a 3xx is
 * answered as is) unless `redirect: 'follow'` — then each hop is re-resolved and re-checked (a hop to a
 * refused address throws ERR_OUTBOUND_URL_REFUSED and is never contacted), Authorization and Cookie are
 * dropped when the origin changes, and a 303 (or a 301/302 after a POST) continues as a GET
 */
export const outboundFetch = async (input: string | URL, init: TOutboundInit = {}): Promise<Response> => {
  const {
    timeoutMs = 10_000,
    maxBytes = 25 * 1024 * 1024,
    maxRedirects = 5,
    redirect = 'manual',
    signal,
    method: asked,
    headers: given,
    body: initialBody,
  } = init;
  const deadline = Date.now() + timeoutMs;
  const headers = new Headers(given);
  let method = (asked ?? 'GET').toUpperCase();
  let body: RequestInit['body'] = initialBody ?? null;
  let url: string | URL = input;
  for (let hop = 0; ; hop++) {
    const checked = await assertOutboundUrl(url);
    const left = deadline - Date.now();
    if (left <= 0) throw new OutboundError('timeout', `no answer within ${timeoutMs} ms`);
    const res = await requestOnce(checked, { method, headers, body, timeoutMs: left, maxBytes, signal });
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || !location || redirect === 'manual') return res;
    if (redirect === 'error') throw new OutboundError('network', `redirected (HTTP ${res.status})`);
    if (hop >= maxRedirects) throw new OutboundError('network', `more than ${maxRedirects} redirects`);
    let next: URL;
    try {
      next = new URL(location, checked.url);
    } catch {
      throw new OutboundError('network', 'a redirect to something that is not a URL');
    }
    if (next.origin !== checked.url.origin) {
      headers.delete('authorization');
      headers.delete('cookie');
    }
    if (res.status === 303 ? method !== 'HEAD' : (res.status === 301 || res.status === 302) && method === 'POST') {
      method = 'GET';
      body = null;
      headers.delete('content-type');
    }
    url = next;
  }
};
