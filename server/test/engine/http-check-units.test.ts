import { describe, expect, it } from 'vitest';
import { formatBytes, quoteKeyword, statusFailure } from '../../src/engine/checks/http/assess.js';
import { classifyError, tlsVerifyFailure } from '../../src/engine/checks/http/errors.js';
import { buildHeaders, nextHop, type HopRequest } from '../../src/engine/checks/http/request.js';
import {
  HopTimer,
  roundMs,
  timeoutFailure,
  type Phase,
} from '../../src/engine/checks/http/timing.js';

const at = { host: 'example.com', port: 443 };

function err(code: string, message = 'boom'): Error {
  return Object.assign(new Error(message), { code });
}

describe('timeoutFailure', () => {
  it.each<[Phase, string]>([
    ['dns', 'dns_timeout'],
    ['connect', 'connect_timeout'],
    ['tls', 'timeout'],
    ['wait', 'timeout'],
    ['download', 'timeout'],
  ])('maps a deadline during %s to %s', (phase, code) => {
    const failure = timeoutFailure(phase, 2500, at);
    expect(failure.code).toBe(code);
    expect(failure.message).toContain('within 2500 ms');
  });

  it('names the peer of a stalled connect', () => {
    expect(timeoutFailure('connect', 100, at).message).toBe(
      'TCP connection to example.com:443 was not established within 100 ms',
    );
  });
});

describe('HopTimer', () => {
  it('derives phases from marks, rounded to 0.001 ms', () => {
    const t = new HopTimer();
    const s = t.start;
    Object.assign(t, {
      dnsEnd: s + 1.23456,
      connectEnd: s + 3.5,
      tlsEnd: s + 10,
      requestSent: s + 10.25,
      firstByte: s + 40.1,
      bodyEnd: s + 45,
    });
    const p = t.phases();
    expect(p.dns).toBe(roundMs(1.23456));
    expect(p.connect).toBeCloseTo(3.5 - 1.23456, 3);
    expect(p.tls).toBeCloseTo(6.5, 3);
    expect(p.ttfb).toBeCloseTo(29.85, 3);
    expect(p.download).toBeCloseTo(4.9, 3);
    expect(roundMs(1.23456)).toBe(1.235);
  });

  it('has no DNS phase without a lookup and times connect from the start', () => {
    const t = new HopTimer();
    t.connectEnd = t.start + 2;
    expect(t.phases()).toEqual({ dns: null, connect: 2, tls: null, ttfb: null, download: null });
  });

  it('never reports a negative wait when the answer beats the end of the upload', () => {
    const t = new HopTimer();
    Object.assign(t, { connectEnd: t.start + 1, requestSent: t.start + 9, firstByte: t.start + 5 });
    expect(t.phases().ttfb).toBe(0);
  });
});

describe('classifyError', () => {
  it.each([
    ['ENOTFOUND', 'dns', 'dns_not_found'],
    ['EAI_AGAIN', 'dns', 'dns_timeout'],
    ['ETIMEOUT', 'dns', 'dns_timeout'],
    ['ESERVFAIL', 'dns', 'dns_server_failure'],
    ['ECONNREFUSED', 'connect', 'connect_refused'],
    ['EHOSTUNREACH', 'connect', 'connect_refused'],
    ['ETIMEDOUT', 'connect', 'connect_timeout'],
    ['ECONNRESET', 'wait', 'connection_reset'],
    ['EPIPE', 'wait', 'connection_reset'],
    ['ECONNRESET', 'download', 'connection_reset'],
    ['ECONNRESET', 'tls', 'tls_handshake_failed'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls', 'tls_handshake_failed'],
    ['CERT_HAS_EXPIRED', 'tls', 'tls_cert_expired'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'tls', 'tls_cert_untrusted'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls', 'tls_hostname_mismatch'],
    ['HPE_INVALID_CONSTANT', 'wait', 'protocol_error'],
    ['HPE_INVALID_HEADER_TOKEN', 'wait', 'protocol_error'],
    ['ERR_SOMETHING_ELSE', 'wait', 'internal_error'],
  ] as const)('maps %s during %s to %s', (code, phase, expected) => {
    expect(classifyError(err(code), phase, at).code).toBe(expected);
  });

  it('keeps stacks out of the message of an unexpected error', () => {
    const failure = classifyError(new TypeError('cannot read x'), 'wait', at);
    expect(failure.code).toBe('internal_error');
    expect(failure.message).toBe('cannot read x');
  });
});

describe('tlsVerifyFailure', () => {
  const cert = { validTo: 'Jan  1 00:00:00 2020 GMT', subject: 'DNS:a.example', issuer: 'Some CA' };

  it.each([
    ['CERT_HAS_EXPIRED', 'tls_cert_expired'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls_cert_untrusted'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'tls_cert_untrusted'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls_cert_untrusted'],
    ['CERT_NOT_YET_VALID', 'tls_cert_untrusted'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls_hostname_mismatch'],
    ['SOMETHING_NEW', 'tls_handshake_failed'],
  ])('maps %s to %s', (reason, code) => {
    expect(tlsVerifyFailure(reason, cert, 'b.example').code).toBe(code);
  });

  it('dates an expired certificate', () => {
    expect(tlsVerifyFailure('CERT_HAS_EXPIRED', cert, 'b.example').message).toBe(
      'The TLS certificate of b.example expired on 2020-01-01T00:00:00.000Z',
    );
  });
});

describe('messages', () => {
  it('formats statuses, sizes and keywords', () => {
    expect(statusFailure(418, ['200-299', '301']).message).toBe(
      "HTTP 418 I'm a Teapot (expected 200-299, 301)",
    );
    expect(formatBytes(1024 * 1024)).toBe('1 MiB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MiB');
    expect(formatBytes(512 * 1024)).toBe('512 KiB');
    expect(formatBytes(1000)).toBe('1,000 bytes');
    expect(quoteKeyword('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
    expect(quoteKeyword('é'.repeat(41))).toBe(`"${'é'.repeat(40)}…"`);
  });
});

describe('request headers', () => {
  const hop = (over: Partial<HopRequest> = {}): HopRequest => ({
    url: new URL('https://example.com:8443/a?b=1'),
    method: 'GET',
    headers: [],
    body: '',
    ...over,
  });

  it('sends defaults for Host, User-Agent, Accept and Accept-Encoding', () => {
    expect(buildHeaders(hop())).toEqual({
      Host: 'example.com:8443',
      'User-Agent': 'Pagewatch/0.1',
      Accept: '*/*',
      'Accept-Encoding': 'gzip, br, deflate',
    });
  });

  it('lets user headers win in any case and keeps repeated ones', () => {
    const headers = buildHeaders(
      hop({
        method: 'POST',
        headers: [
          { name: 'user-agent', value: 'Mine' },
          { name: 'X-A', value: '1' },
          { name: 'x-a', value: '2' },
        ],
      }),
    );
    expect(headers['User-Agent']).toBeUndefined();
    expect(headers['user-agent']).toBe('Mine');
    expect(headers['X-A']).toEqual(['1', '2']);
    expect(headers['Content-Length']).toBe('0');
  });
});

describe('nextHop', () => {
  const post: HopRequest = {
    url: new URL('https://example.com/form'),
    method: 'POST',
    headers: [
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Authorization', value: 'Bearer x' },
      { name: 'Cookie', value: 'a=b' },
      { name: 'X-Other', value: 'kept' },
    ],
    body: '{}',
  };

  it('resolves a relative Location against the current URL', () => {
    expect(nextHop(post, 307, '../next?x=1').url.href).toBe('https://example.com/next?x=1');
    expect(nextHop(post, 307, '//cdn.example.com/z').url.href).toBe('https://cdn.example.com/z');
  });

  it('turns POST into GET on 301/302/303 and drops the body headers', () => {
    for (const status of [301, 302, 303]) {
      const next = nextHop(post, status, '/done');
      expect(next.method).toBe('GET');
      expect(next.body).toBe('');
      expect(next.headers.map((h) => h.name)).toEqual(['Authorization', 'Cookie', 'X-Other']);
    }
  });

  it('keeps the method on 307/308, and PUT on 301', () => {
    expect(nextHop(post, 307, '/x')).toMatchObject({ method: 'POST', body: '{}' });
    expect(nextHop(post, 308, '/x')).toMatchObject({ method: 'POST', body: '{}' });
    expect(nextHop({ ...post, method: 'PUT' }, 301, '/x').method).toBe('PUT');
    expect(nextHop({ ...post, method: 'PUT' }, 303, '/x').method).toBe('GET');
    expect(nextHop({ ...post, method: 'HEAD' }, 303, '/x').method).toBe('HEAD');
  });

  it('drops credentials when the origin changes', () => {
    const next = nextHop(post, 307, 'https://other.example/x');
    expect(next.headers.map((h) => h.name)).toEqual(['Content-Type', 'X-Other']);
    expect(nextHop(post, 307, 'http://example.com/x').headers).toHaveLength(2);
  });

  it('refuses Locations that are not http(s)', () => {
    expect(() => nextHop(post, 302, 'ftp://example.com/')).toThrow(/unsupported URL/);
    expect(() => nextHop(post, 302, 'http://[bad')).toThrow(/invalid URL/);
  });
});
