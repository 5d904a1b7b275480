import { describe, expect, it } from 'vitest';
import { addressNetwork } from './log-address.server.ts';

describe('addressNetwork', () => {
  it('keeps the /24 of an IPv4 address and the /48 of an IPv6 one', () => {
    expect(addressNetwork('198.51.100.7')).toBe('198.51.100.0/24');
    expect(addressNetwork('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
    expect(addressNetwork('::FFFF:127.0.0.1')).toBe('127.0.0.0/24');
    expect(addressNetwork('2001:DB8:ABCD:12::7')).toBe('2001:db8:abcd::/48');
    expect(addressNetwork('2001:db8:abcd:0012:0000:0000:0000:0007')).toBe('2001:db8:abcd::/48');
    expect(addressNetwork('1:2:3:4:5:6:7:8')).toBe('1:2:3::/48');
    expect(addressNetwork('64:ff9b::198.51.100.7')).toBe('64:ff9b::/48');
    expect(addressNetwork('::1')).toBe('::/48');
    expect(addressNetwork('fe80::1%eth0')).toBe('fe80::/48');
  });

  it('gives nothing for what is not an address', () => {
    for (const value of [undefined, '', 'unknown', '198.51.100', '1.2.3.4.5', '2001:db8::x']) {
      expect(addressNetwork(value), String(value)).toBeUndefined();
    }
  });
});
