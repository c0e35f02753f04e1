import { describe, expect, it } from 'vitest';
import { embeddedIPv4, ipv6Bytes } from '../../src/notify/embedded-ipv4.js';

const hex = (bytes: Uint8Array | null) => (bytes ? Buffer.from(bytes).toString('hex') : null);

describe('reading an IPv6 address', () => {
  it('reads every spelling of one address as the same 16 bytes', () => {
    const expected = '00000000000000000000ffffa9fea9fe';
    for (const spelling of [
      '::ffff:a9fe:a9fe',
      '::ffff:169.254.169.254',
      '0:0:0:0:0:ffff:a9fe:a9fe',
      '0000:0000:0000:0000:0000:FFFF:A9FE:A9FE',
      '::ffff:a9fe:a9fe%eth0',
    ]) {
      expect(hex(ipv6Bytes(spelling)), spelling).toBe(expected);
    }
  });

  it('reads groups with fewer than four digits', () => {
    expect(hex(ipv6Bytes('::FFFF:a9:0fe'))).toBe('00000000000000000000ffff00a900fe');
  });

  it('expands :: at the start, middle and end', () => {
    expect(hex(ipv6Bytes('::'))).toBe('0'.repeat(32));
    expect(hex(ipv6Bytes('::1'))).toBe(`${'0'.repeat(31)}1`);
    expect(hex(ipv6Bytes('fe80::1'))).toBe(`fe80${'0'.repeat(27)}1`);
    expect(hex(ipv6Bytes('2001:db8::'))).toBe(`20010db8${'0'.repeat(24)}`);
    expect(hex(ipv6Bytes('1:2:3:4:5:6:7:8'))).toBe('00010002000300040005000600070008');
  });

  it('is null for what is not an IPv6 address', () => {
    for (const text of ['', '1.2.3.4', 'localhost', '1::2::3', '12345::', '::ffff:01.2.3.4']) {
      expect(ipv6Bytes(text), text).toBeNull();
    }
  });
});

describe('IPv4 addresses carried in IPv6 ones', () => {
  it.each([
    ['::ffff:169.254.169.254', 'mapped', '169.254.169.254'],
    ['::ffff:0:a9fe:a9fe', 'translated', '169.254.169.254'],
    ['::169.254.169.254', 'compatible', '169.254.169.254'],
    ['::0.0.0.2', 'compatible', '0.0.0.2'],
    ['64:ff9b::169.254.169.254', 'nat64', '169.254.169.254'],
    ['64:ff9b:1::a9fe:a9fe', 'nat64-local', '169.254.169.254'],
    ['2002:a9fe:a9fe::1', '6to4', '169.254.169.254'],
    ['2001:0:a9fe:a9fe::1', 'teredo-server', '169.254.169.254'],
    ['fe80::5efe:169.254.169.254', 'isatap', '169.254.169.254'],
    ['2001:db8::200:5efe:a00:1', 'isatap', '10.0.0.1'],
  ] as const)('%s carries %s %s', (address, form, ipv4) => {
    expect(embeddedIPv4(address)).toContainEqual({ form, ipv4 });
  });

  it('reads a Teredo client as the last 32 bits inverted', () => {
    // 2001:0:4136:e378:8000:63bf:3fff:fdd2 is RFC 4380's example: server 65.54.227.120, client
    // 192.0.2.45.
    expect(embeddedIPv4('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual([
      { form: 'teredo-server', ipv4: '65.54.227.120' },
      { form: 'teredo-client', ipv4: '192.0.2.45' },
    ]);
    expect(embeddedIPv4('2001::5601:5601')).toContainEqual({
      form: 'teredo-client',
      ipv4: '169.254.169.254',
    });
  });

  it('reads the local-use NAT64 prefix at each RFC 6052 length an operator may choose', () => {
    // /48: bytes 6-7 and 9-10 around the zero u-octet; /56: 7 and 9-11; /64: 9-12; /96: 12-15.
    const at = (a: string) => embeddedIPv4(a).map((e) => e.ipv4);
    expect(at('64:ff9b:1:a9fe:a9:fe00::')).toContain('169.254.169.254');
    expect(at('64:ff9b:1:a9:fe:a9fe::')).toContain('169.254.169.254');
    expect(at('64:ff9b:1:0:a9:fea9:fe00:0')).toContain('169.254.169.254');
    expect(at('64:ff9b:1::808:808')).toEqual(['8.8.8.8']);
  });

  it('finds nothing in :: and ::1, nor in ordinary addresses', () => {
    for (const address of ['::', '::1', '2606:4700::1111', 'fd00::1', '2001:db8::1', '1.2.3.4']) {
      expect(embeddedIPv4(address), address).toEqual([]);
    }
  });
});
