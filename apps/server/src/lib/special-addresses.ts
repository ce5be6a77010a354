import { BlockList, isIP } from 'node:net';

/**
 * The addresses a tenant's URL may never reach (lib/outbound.ts asks): every block of the IANA IPv4 and
 * IPv6 Special-Purpose Address Registries (RFC 6890 and its successors) that is not globally reachable,
 * plus multicast and the reserved 240/4. A few registry blocks that are marked globally reachable but serve
 * no web service a tenant needs (AS112, AMT, ORCHIDv2, NAT64's well-known prefix) are refused as well:
 * stricter is cheaper than a hole. Addresses that carry an IPv4 address inside (IPv4-mapped
 * `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`) are judged by that IPv4 address.
 */

const V4_BLOCKS: [string, number, string][] = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private use'],
  ['100.64.0.0', 10, 'shared address space (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private use'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.31.196.0', 24, 'AS112-v4'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, 'deprecated 6to4 relay anycast'],
  ['192.168.0.0', 16, 'private use'],
  ['192.175.48.0', 24, 'direct delegation AS112'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, limited broadcast'],
];

const V6_BLOCKS: [string, number, string][] = [
  ['::', 96, 'unspecified, loopback, deprecated IPv4-compatible'],
  ['::ffff:0:0:0', 96, 'SIIT IPv4-translated (the embedded IPv4 is judged, see below)'],
  ['64:ff9b::', 96, 'NAT64 well-known prefix: reaches IPv4 through a gateway'],
  ['64:ff9b:1::', 48, 'NAT64 local use'],
  ['100::', 64, 'discard-only'],
  ['100:0:0:1::', 64, 'dummy IPv6 prefix'],
  ['2001::', 23, 'IETF protocol assignments (Teredo, benchmarking, ORCHID, AMT, AS112…)'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4: reaches any IPv4 through a relay'],
  ['2620:4f:8000::', 48, 'direct delegation AS112'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing SIDs'],
  ['fc00::', 7, 'unique local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'deprecated site-local'],
  ['ff00::', 8, 'multicast'],
];

const BLOCKED = new BlockList();
for (const [net, prefix] of V4_BLOCKS) BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6_BLOCKS) BLOCKED.addSubnet(net, prefix, 'ipv6');

/** the registry blocks, for the tests and the docs */
export const SPECIAL_BLOCKS = { v4: V4_BLOCKS, v6: V6_BLOCKS } as const;

/** the 8 groups of an IPv6 address (a dotted IPv4 tail included) */
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

/**
 * An address as the family it really reaches: IPv4-mapped (`::ffff:a.b.c.d`) and SIIT IPv4-translated
 * (`::ffff:0:a.b.c.d`) IPv6 addresses as their IPv4 address; anything else as itself.
 */
export const unmapped = (address: string): { address: string; family: 4 | 6 } => {
  if (isIP(address) !== 6) return { address, family: 4 };
  const g = ipv6Groups(address);
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const translated = g.slice(0, 4).every((x) => x === 0) && g[4] === 0xffff && g[5] === 0;
  if (g.length === 8 && (mapped || translated)) {
    const hi = g[6] as number;
    const lo = g[7] as number;

    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 4 };
  }

  return { address, family: 6 };
};

/** true when the address is in a block no tenant URL may reach without the operator's leave */
export const isPrivateAddress = (address: string): boolean => {
  // a scoped address (`fe80::1%eth0`) only means something on this machine's links
  if (address.includes('%')) return true;
  const a = unmapped(address);
  if (!isIP(a.address)) return true;

  return BLOCKED.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4');
};
