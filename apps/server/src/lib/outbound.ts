import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../http/errors';

/**
 * The one SSRF guard for every outbound URL a tenant configures (AI base URL, Typebot, n8n, webhooks):
 * http/https only; the host resolved and refused when any address is private, loopback, link-local,
 * unique-local, CGNAT, multicast, reserved or unspecified (IPv4, IPv6, IPv4-mapped IPv6) — unless the
 * operator allows the host name, the address or its range in OUTBOUND_ALLOW_HOSTS. `outboundFetch`
 * then connects to the very address it checked (the lookup is pinned, so DNS rebinding cannot switch
 * it), follows no redirect (a 3xx is answered as is) and gives up after `timeoutMs`.
 */

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible range
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses through a gateway
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

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

/** the 8 groups of an IPv6 address */
const ipv6Groups = (address: string): number[] => {
  let text = address.toLowerCase();
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = (dotted[1] as string).split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -(dotted[1] as string).length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);

  return [...left, ...fill, ...right];
};

/** an IPv4-mapped IPv6 address (::ffff:a.b.c.d) as its IPv4 address */
const unmapped = (address: string): { address: string; family: 4 | 6 } => {
  if (isIP(address) !== 6) return { address, family: 4 };
  const g = ipv6Groups(address);
  if (g.length === 8 && g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    const hi = g[6] as number;
    const lo = g[7] as number;

    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 4 };
  }

  return { address, family: 6 };
};

/** true when the address is one a tenant's URL may not reach without the operator's leave */
export const isPrivateAddress = (address: string): boolean => {
  const a = unmapped(address);

  return BLOCKED.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4');
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

/** a call that did not get an answer: `timeout` or `network` (refused, reset, TLS, DNS) */
export class OutboundError extends Error {
  readonly kind: 'timeout' | 'network';

  constructor(kind: 'timeout' | 'network', message: string) {
    super(message);
    this.kind = kind;
  }
}

export type TOutboundInit = RequestInit & {
  /** the whole call, answer body included; 10 s unless told */
  timeoutMs?: number;
  /** the largest answer body kept (25 MB unless told); more fails the call */
  maxBytes?: number;
};

const NO_BODY = new Set([101, 204, 205, 304]);

/** fetch, through the guard: the checked address pinned, no redirect followed, a timeout */
export const outboundFetch = async (input: string | URL, init: TOutboundInit = {}): Promise<Response> => {
  const checked = await assertOutboundUrl(input);
  const { timeoutMs = 10_000, maxBytes = 25 * 1024 * 1024, ...rest } = init;
  const method = (rest.method ?? 'GET').toUpperCase();
  // the body serialised as fetch would (FormData → multipart with its boundary, objects → text)
  const prepared = new Request(checked.url, { method, headers: rest.headers, body: rest.body ?? null });
  const body = rest.body == null ? undefined : Buffer.from(await prepared.arrayBuffer());
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  prepared.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers['content-length'] = String(body.length);
  const send = checked.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const pinned = checked;

  return await new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err);
    };
    const req = send(checked.url, {
      method,
      headers,
      lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
        if (opts?.all) cb(null, [{ address: pinned.address, family: pinned.family }]);
        else cb(null, pinned.address, pinned.family);
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
    rest.signal?.addEventListener('abort', abort, { once: true });
    req.on('error', (err) => fail(new OutboundError('network', err.message)));
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          fail(new OutboundError('network', 'answer too large'));
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
        rest.signal?.removeEventListener('abort', abort);
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
