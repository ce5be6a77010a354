import { describe, expect, it } from 'vitest';
import { isPrivateAddress, SPECIAL_BLOCKS, unmapped } from './special-addresses';

/** the last address of an IPv4 block */
const lastV4 = (net: string, prefix: number) => {
  const n = net.split('.').reduce((acc, x) => acc * 256 + Number(x), 0) + 2 ** (32 - prefix) - 1;

  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
};

describe('the special-purpose address blocks', () => {
  it('refuses every registry block that is not globally reachable, first and last address', () => {
    for (const [net, prefix] of SPECIAL_BLOCKS.v4) {
      expect(isPrivateAddress(net), `${net}/${prefix}`).toBe(true);
      expect(isPrivateAddress(lastV4(net, prefix)), `${net}/${prefix} last`).toBe(true);
    }
    for (const [net, prefix] of SPECIAL_BLOCKS.v6) {
      expect(isPrivateAddress(net === '::' ? '::1' : net), `${net}/${prefix}`).toBe(true);
    }
  });

  it('names the ranges the outside test asked for', () => {
    for (const a of [
      '192.0.2.1', // TEST-NET-1
      '198.51.100.7', // TEST-NET-2
      '203.0.113.200', // TEST-NET-3
      '192.88.99.1', // 6to4 relay anycast
      '192.0.0.8',
      '198.19.255.255',
      '64:ff9b:1::a00:1', // NAT64 local use
      '64:ff9b::7f00:1', // NAT64 well-known prefix
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '2002:808:808::1', // 6to4 of a public address: refused too (relay)
      '2001:db8::1', // documentation
      '3fff::1', // documentation (RFC 9637)
      '100::1', // discard-only
      '2001::1', // Teredo
      '2001:2::1', // benchmarking
      '2001:10::1', // ORCHID
      '2001:1ff:ffff::1', // end of 2001::/23
      'fec0::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '::',
      '::1',
      '::127.0.0.1', // deprecated IPv4-compatible
      'fe80::1%eth0', // scoped
      'not-an-address',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
  });

  it('judges IPv4-mapped and IPv4-translated addresses by the IPv4 inside', () => {
    for (const a of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe', // 169.254.169.254
      '::ffff:192.0.2.1',
      '::ffff:203.0.113.9',
      '::ffff:10.0.0.1',
      '::ffff:0:127.0.0.1', // SIIT
      '0:0:0:0:0:ffff:c0a8:0101', // 192.168.1.1, long form
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    expect(unmapped('::ffff:8.8.8.8')).toEqual({ address: '8.8.8.8', family: 4 });
    expect(unmapped('::ffff:0:8.8.4.4')).toEqual({ address: '8.8.4.4', family: 4 });
    expect(isPrivateAddress('::ffff:8.8.8.8')).toBe(false);
  });

  it('lets public addresses through', () => {
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '157.240.22.35', // Meta
      '192.0.3.1', // just past TEST-NET-1
      '198.51.99.255',
      '203.0.114.1',
      '100.128.0.1', // just past CGNAT
      '2606:4700:4700::1111',
      '2a03:2880:f10c:83:face:b00c:0:25de', // Meta
      '2001:200::1', // just past 2001::/23
    ]) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
  });
});
