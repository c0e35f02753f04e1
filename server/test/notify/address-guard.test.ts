import { describe, expect, it } from 'vitest';
import {
  assertAllowedHost,
  hostRefusal,
  isAllowedAddress,
  refusal,
  RefusedAddress,
} from '../../src/notify/address-guard.js';

type Verdict = 'allowed' | 'refused';
/** [address, with blockPrivate off, with blockPrivate on] */
type Row = readonly [string, Verdict, Verdict];

const always = (address: string): Row => [address, 'refused', 'refused'];
const privately = (address: string): Row => [address, 'allowed', 'refused'];
const never = (address: string): Row => [address, 'allowed', 'allowed'];

// Addresses as a resolver or an IP-literal host hands them to the guard.
const addresses: Row[] = [
  // Link-local and cloud metadata, in every spelling.
  ...[
    '169.254.169.254',
    '169.254.170.2', // AWS ECS task metadata
    '169.254.0.1',
    '100.100.100.200', // Alibaba Cloud
    '192.0.0.192', // Oracle Cloud Classic
    '168.63.129.16', // Azure WireServer
    '::ffff:a9fe:a9fe',
    '::ffff:169.254.169.254',
    '::FFFF:A9FE:A9FE',
    '0:0:0:0:0:ffff:a9fe:a9fe',
    '0000:0000:0000:0000:0000:ffff:a9fe:a9fe',
    '::ffff:0:a9fe:a9fe', // IPv4-translated
    '::ffff:0:169.254.169.254',
    '::a9fe:a9fe', // IPv4-compatible
    '::169.254.169.254',
    '64:ff9b::a9fe:a9fe', // NAT64
    '64:ff9b::169.254.169.254',
    '0064:ff9b:0000:0000:0000:0000:a9fe:a9fe',
    '64:ff9b:1::a9fe:a9fe', // local-use NAT64, /96
    '64:ff9b:1:a9fe:a9:fe00::', // local-use NAT64, /48
    '2002:a9fe:a9fe::1', // 6to4
    '2002:a9fe:a9fe:1234::5',
    '2001:0:a9fe:a9fe::1', // Teredo server
    '2001::5601:5601', // Teredo client (inverted)
    '2001:db8::5efe:a9fe:a9fe', // ISATAP interface id
    '::ffff:100.100.100.200',
    '64:ff9b::192.0.0.192',
    '2002:a83f:8110::', // 6to4 of Azure's WireServer
    'fe80::1',
    'fe80::1%eth0',
    'FE80::1',
    'fe80:0000:0000:0000:0000:0000:0000:0001',
    'febf:ffff::1',
    'fd00:ec2::254', // AWS IMDS over IPv6
    'FD00:EC2:0:0:0:0:0:254',
    'fd00:ec2::23', // AWS EKS pod identity agent
    'fd20:ce::254', // Google Cloud
    'fd00:c1::a9fe:a9fe', // Oracle Cloud Infrastructure
  ].map(always),
  // Loopback and private: refused only with blockPrivate.
  ...[
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    '0:0:0:0:0:0:0:1',
    'fc00::1',
    'fd12:3456::1',
    'fec0::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:0:7f00:1',
    '::7f00:1',
    '::127.0.0.1',
    '::0.0.0.2',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::',
    '2002:c0a8:101::1',
    '2001:0:a00:1::1', // Teredo server 10.0.0.1
    '2001::80ff:fefe', // Teredo client 127.0.1.1
    'fd00::1',
  ].map(privately),
  // Public, even when carried.
  ...[
    '8.8.8.8',
    '1.1.1.1',
    '169.253.255.255',
    '169.255.0.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.0.0.191',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '64:ff9b:1::808:808',
    '2002:808:808::1',
    '2001:0:808:808::f7f7:f7f7',
    '2001:db8::1',
  ].map(never),
  // Not an address at all.
  ...['', 'not-an-ip', '1.2.3', '::ffff:01.2.3.4'].map(always),
];

const verdict = (allowed: boolean): Verdict => (allowed ? 'allowed' : 'refused');

describe('the verdict on each spelling of an address', () => {
  it.each(addresses)('%s: %s, or %s with blockPrivate', (address, off, on) => {
    expect(verdict(isAllowedAddress(address, false))).toBe(off);
    expect(verdict(isAllowedAddress(address, true))).toBe(on);
  });

  it('names the IPv4 address an IPv6 one carries, and why it is refused', () => {
    expect(refusal('64:ff9b::a9fe:a9fe', false)).toEqual({
      address: '64:ff9b::a9fe:a9fe',
      reason: 'metadata',
      carried: '169.254.169.254',
    });
    expect(new RefusedAddress(refusal('2002:7f00:1::', true)!).message).toBe(
      'refused: 2002:7f00:1:: carries 127.0.0.1, a private address (PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS)',
    );
    expect(new RefusedAddress(refusal('fd00:ec2::254', false)!).message).toBe(
      'refused: fd00:ec2::254 is a link-local or cloud metadata address',
    );
  });
});

// URLs as people type them. The send path judges `new URL(url).hostname`, which WHATWG URL
// parsing has already normalised (decimal, hex, octal and short IPv4, trailing dots, IPv6 case).
const urls: Row[] = [
  ...[
    'http://169.254.169.254/latest/meta-data/',
    'http://2852039166/',
    'http://0xa9fea9fe/',
    'http://0251.0376.0251.0376/',
    'http://0xa9.0xfe.0xa9.0xfe/',
    'http://169.254.43518/',
    'http://169.254.169.254./',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[::FFFF:A9FE:A9FE]:8080/',
    'http://[0:0:0:0:0:ffff:169.254.169.254]/',
    'http://[::ffff:0:169.254.169.254]/',
    'http://[::169.254.169.254]/',
    'http://[64:ff9b::169.254.169.254]/',
    'http://[64:ff9b:1::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::]/',
    'http://[2001::5601:5601]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'https://[FD00:EC2:0::254]/',
    'http://1684301000/', // 100.100.100.200
  ].map(always),
  ...[
    'http://127.0.0.1/',
    'http://127.0.0.1./',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://0/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://localhost/hook',
    'http://localhost./hook',
    'http://LOCALHOST./',
    'http://api.localhost/',
  ].map(privately),
];

describe('the verdict on webhook URLs, as the send path and the subscribe form see them', () => {
  it('sees decimal, hex and octal IPv4 hosts as the dotted quad URL parsing makes of them', () => {
    for (const url of ['http://2852039166/', 'http://0xa9fea9fe/', 'http://0251.0376.0251.0376/']) {
      expect(new URL(url).hostname, url).toBe('169.254.169.254');
    }
    expect(new URL('http://1684301000/').hostname).toBe('100.100.100.200');
    expect(new URL('http://127.0.0.1./').hostname).toBe('127.0.0.1');
  });

  it.each(urls)('%s: %s, or %s with blockPrivate', async (url, off, on) => {
    const host = new URL(url).hostname;
    expect(verdict((await hostRefusal(host, false)) === null)).toBe(off);
    expect(verdict((await hostRefusal(host, true)) === null)).toBe(on);
    // What needs no lookup is refused before any connection, the same way.
    if (on === 'refused' && !/localhost/.test(host)) {
      expect(() => assertAllowedHost(host, true)).toThrow(RefusedAddress);
    }
  });

  it('refuses localhost names up front with blockPrivate, whatever the resolver says', () => {
    for (const host of ['localhost', 'localhost.', 'api.localhost', 'LocalHost.']) {
      expect(() => assertAllowedHost(host, true)).toThrow(`refused: ${host} is a private address`);
      expect(() => assertAllowedHost(host, false)).not.toThrow();
    }
  });

  it('takes a name that does not resolve: every send judges it again', async () => {
    expect(await hostRefusal('no-such-host.invalid', true)).toBeNull();
  });
});
