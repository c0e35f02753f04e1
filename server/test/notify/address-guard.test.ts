import { describe, expect, it } from 'vitest';
import {
  assertAllowedHost,
  channelEgress,
  hostRefusal,
  isAllowedAddress,
  refusal,
  RefusedAddress,
  subscriberWebhookEgress,
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
  // Multicast and broadcast: no HTTP or SMTP peer there, in every spelling.
  ...[
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    'ff02::1',
    'FF05::1:3',
    'ff0e::101',
    'ff00::',
    '::ffff:224.0.0.1',
    '::ffff:e000:1',
    '::ffff:0:e000:1', // IPv4-translated
    '::224.0.0.1', // IPv4-compatible
    '64:ff9b::239.255.255.250', // NAT64
    '64:ff9b:1::e000:1', // local-use NAT64
    '2002:e000:1::', // 6to4
    '2001:0:e000:1::1', // Teredo server
    '2001::1fff:fffe', // Teredo client 224.0.0.1 (inverted)
    '2606:4700::5efe:e000:1', // ISATAP interface id
    '::ffff:255.255.255.255',
    '::ffff:ffff:ffff',
    '64:ff9b::ffff:ffff',
    '2002:ffff:ffff::1',
    '2001:0:808:808::', // Teredo client 255.255.255.255 (all bits inverted)
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
    // Reserved and documentation ranges: a lab may use them, the public internet does not.
    '192.0.0.1', // IETF protocol assignments
    '192.0.0.170', // NAT64 discovery
    '192.0.0.191',
    '192.0.2.1', // TEST-NET-1
    '198.18.0.1', // benchmarking
    '198.19.255.255',
    '198.51.100.7', // TEST-NET-2
    '203.0.113.7', // TEST-NET-3
    '240.0.0.1', // reserved
    '255.255.255.254',
    '2001:db8::1', // documentation
    '2001:DB8:FFFF::1',
    '2001:0db8:0000:0000:0000:0000:0000:0001',
    '::ffff:192.0.2.1',
    '::ffff:c612:1', // 198.18.0.1
    '::ffff:0:cb00:7107', // IPv4-translated 203.0.113.7
    '::198.51.100.7',
    '64:ff9b::203.0.113.7',
    '64:ff9b:1::c000:1', // 192.0.0.1
    '2002:cb00:7107::', // 6to4 203.0.113.7
    '2002:f000:1::1', // 6to4 240.0.0.1
    '2001:0:c612:1::f7f7:f7f7', // Teredo server 198.18.0.1
    '2001:0:808:808::39cc:9bf8', // Teredo client 198.51.100.7 (inverted)
    '2606:4700::5efe:c633:6407', // ISATAP 198.51.100.7
  ].map(privately),
  // Public, even when carried.
  ...[
    '8.8.8.8',
    '1.1.1.1',
    '169.253.255.255',
    '169.255.0.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.0.1.1',
    '192.0.3.1',
    '198.17.255.255',
    '198.20.0.1',
    '198.51.99.255',
    '203.0.114.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:db9::1',
    '2001:db7:ffff::1',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '64:ff9b:1::808:808',
    '2002:808:808::1',
    '2001:0:808:808::f7f7:f7f7',
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
    const notify = 'PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS';
    expect(new RefusedAddress(refusal('2002:7f00:1::', true)!, notify).message).toBe(
      'refused: 2002:7f00:1:: carries 127.0.0.1, a private address (PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS)',
    );
    expect(new RefusedAddress(refusal('fd00:ec2::254', false)!, notify).message).toBe(
      'refused: fd00:ec2::254 is a link-local or cloud metadata address',
    );
    expect(refusal('2001:0:e000:1::1', false)).toEqual({
      address: '2001:0:e000:1::1',
      reason: 'multicast',
      carried: '224.0.0.1',
    });
  });

  it('names the gravest of the IPv4 addresses an IPv6 one carries', () => {
    // Teredo: server 10.0.0.1 (private), client 169.254.169.254 (metadata), 224.0.0.1 (multicast).
    expect(refusal('2001:0:a00:1::5601:5601', true)).toMatchObject({
      reason: 'metadata',
      carried: '169.254.169.254',
    });
    expect(refusal('2001:0:a00:1::1fff:fffe', true)).toMatchObject({
      reason: 'multicast',
      carried: '224.0.0.1',
    });
  });

  it('names the setting that applies to a private address, and no setting for the rest', () => {
    const policies = [channelEgress(true), subscriberWebhookEgress(false)];
    const messages = (host: string) =>
      policies.map((policy) => {
        try {
          assertAllowedHost(host, policy);
          return 'allowed';
        } catch (err) {
          return (err as Error).message;
        }
      });
    expect(messages('203.0.113.7')).toEqual([
      'refused: 203.0.113.7 is a private address (PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS)',
      'refused: 203.0.113.7 is a private address (PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS)',
    ]);
    expect(messages('ff02::1')).toEqual([
      'refused: ff02::1 is a multicast or broadcast address',
      'refused: ff02::1 is a multicast or broadcast address',
    ]);
    expect(() => assertAllowedHost('203.0.113.7', subscriberWebhookEgress(true))).not.toThrow();
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
    'http://224.0.0.1/',
    'http://3758096385/', // 224.0.0.1
    'http://255.255.255.255/',
    'http://4294967295/',
    'http://0xffffffff/',
    'http://[ff02::1]/',
    'http://[::ffff:224.0.0.1]/',
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
    'http://198.18.0.1/',
    'http://3323068417/', // 198.18.0.1
    'http://192.0.2.1/',
    'http://198.51.100.7/',
    'http://203.0.113.7/',
    'http://240.0.0.1/',
    'http://[2001:db8::1]/',
    'http://[64:ff9b::203.0.113.7]/',
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
      expect(() => assertAllowedHost(host, channelEgress(true))).toThrow(RefusedAddress);
    }
  });

  it('refuses localhost names up front with blockPrivate, whatever the resolver says', () => {
    for (const host of ['localhost', 'localhost.', 'api.localhost', 'LocalHost.']) {
      expect(() => assertAllowedHost(host, channelEgress(true))).toThrow(
        `refused: ${host} is a private address`,
      );
      expect(() => assertAllowedHost(host, channelEgress(false))).not.toThrow();
    }
  });

  it('takes a name that does not resolve: every send judges it again', async () => {
    expect(await hostRefusal('no-such-host.invalid', true)).toBeNull();
  });
});
