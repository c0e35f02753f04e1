import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noPhases, type CheckRun } from '../../src/domain/check-run.js';
import {
  parseBootstrap,
  SHIPPED_BOOTSTRAP,
  loadBootstrapFile,
} from '../../src/engine/checks/domain/bootstrap.js';
import { rdapCacheTimes, RdapClient } from '../../src/engine/checks/domain/client.js';
import { runDomainCheck, withDomainExpiry } from '../../src/engine/checks/domain/index.js';
import { registeredDomain } from '../../src/engine/checks/domain/registered-domain.js';

const DAY = 86_400_000;
/** The test's clock: registrations are dated against it, and the cache reads it. */
const clock = { now: Date.parse('2026-11-27T12:00:00Z') };

/** An RDAP domain answer (RFC 9083) expiring `days` after the test clock. */
function rdapDomain(name: string, days: number) {
  return {
    objectClassName: 'domain',
    ldhName: name,
    rdapConformance: ['rdap_level_0'],
    events: [
      { eventAction: 'registration', eventDate: '2001-05-04T10:00:00Z' },
      { eventAction: 'expiration', eventDate: new Date(clock.now + days * DAY).toISOString() },
    ],
    entities: [
      {
        objectClassName: 'entity',
        roles: ['registrar'],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', 'Loopback Registrar Ltd'],
          ],
        ],
      },
    ],
  };
}

/** A registry on loopback: one behaviour per domain name, and a count of what was asked. */
const asked = new Map<string, number>();
let registryDown = false;
function answer(req: IncomingMessage, res: ServerResponse): void {
  const name = decodeURIComponent((req.url ?? '').replace(/^\/domain\//, ''));
  asked.set(name, (asked.get(name) ?? 0) + 1);
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/rdap+json', ...headers });
    res.end(JSON.stringify(body));
  };
  if (registryDown) return json(503, { errorCode: 503, title: 'Maintenance' });
  switch (name) {
    case 'example.test':
      return json(200, rdapDomain(name, 200));
    case 'soon.test':
      return json(200, rdapDomain(name, 10));
    case 'lapsed.test':
      return json(200, rdapDomain(name, -3));
    case 'missing.test':
      return json(404, { errorCode: 404, title: 'Not Found' });
    case 'garbage.test':
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html>Registry portal</html>');
    case 'noexpiry.test':
      return json(200, { objectClassName: 'domain', ldhName: name, events: [] });
    case 'busy.test':
      return json(429, { errorCode: 429, title: 'Too Many Requests' }, { 'retry-after': '120' });
    case 'slow.test':
      return; // never answers
    default:
      return json(404, { errorCode: 404 });
  }
}

let server: Server;
let bootstrapUrl: string;
beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bootstrapUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A client whose bootstrap sends `.test` to the loopback registry, on the test clock. */
function client(): RdapClient {
  const bootstrap = parseBootstrap(
    JSON.stringify({
      version: '1.0',
      publication: '2026-11-27T00:00:00Z',
      services: [[['test'], [bootstrapUrl.replace(/\/$/, '')]]],
    }),
  );
  return new RdapClient({ bootstrap, now: () => clock.now });
}

const ctx = () => ({ signal: new AbortController().signal, now: clock.now });
const check = (c: RdapClient, domain: string, warnDays = 30, timeoutMs = 2000) =>
  runDomainCheck({ domain, warnDays, timeoutMs }, ctx(), c);

describe('a domain monitor', () => {
  it('is up while the registration has more than the warning days left, and shows it', async () => {
    const run = await check(client(), 'www.example.test');
    expect(run).toMatchObject({ outcome: 'up', errorCode: null, errorMessage: null });
    expect(run.latencyMs).toEqual(expect.any(Number));
    expect(run.details?.domain).toEqual({
      domain: 'example.test',
      expiresAt: new Date(clock.now + 200 * DAY).toISOString(),
      registrar: 'Loopback Registrar Ltd',
      server: bootstrapUrl,
      checkedAt: new Date(clock.now).toISOString(),
      errorCode: null,
      errorMessage: null,
    });
  });

  it('is degraded within the warning days and down once expired, like a certificate', async () => {
    const c = client();
    expect(await check(c, 'soon.test')).toMatchObject({
      outcome: 'degraded',
      errorCode: 'domain_expiring',
      errorMessage: `The registration of soon.test expires on ${new Date(clock.now + 10 * DAY).toISOString().slice(0, 10)}, in 10 days`,
    });
    expect(await check(c, 'soon.test', 7)).toMatchObject({ outcome: 'up' });
    expect(await check(c, 'lapsed.test')).toMatchObject({
      outcome: 'down',
      errorCode: 'domain_expired',
      errorMessage: expect.stringContaining('expired on'),
    });
  });

  it('is down when the registry has no such domain', async () => {
    expect(await check(client(), 'missing.test')).toMatchObject({
      outcome: 'down',
      errorCode: 'domain_not_found',
      errorMessage: 'The registry has no domain missing.test: it is not registered',
    });
  });

  it('is down, saying so, when the TLD has no RDAP service or the name is not registrable', async () => {
    expect(await check(client(), 'shop.example.de')).toMatchObject({
      outcome: 'down',
      errorCode: 'rdap_unsupported',
      errorMessage: expect.stringMatching(/^No RDAP service is known for \.de/),
    });
    expect(await check(client(), 'co.uk')).toMatchObject({
      outcome: 'down',
      errorCode: 'rdap_unsupported',
    });
  });

  it('is degraded on an answer that is not RDAP or carries no expiration date', async () => {
    const c = client();
    expect(await check(c, 'garbage.test')).toMatchObject({
      outcome: 'degraded',
      errorCode: 'rdap_bad_answer',
      errorMessage: 'The RDAP answer is not JSON',
    });
    expect(await check(c, 'noexpiry.test')).toMatchObject({
      outcome: 'degraded',
      errorCode: 'rdap_bad_answer',
      errorMessage: 'The registry gives no expiration date for this domain',
    });
  });

  it('is degraded when the registry does not answer within the timeout', async () => {
    const started = Date.now();
    const run = await check(client(), 'slow.test', 30, 300);
    expect(run).toMatchObject({
      outcome: 'degraded',
      errorCode: 'rdap_timeout',
      errorMessage: 'The RDAP service of .test did not answer within 300 ms',
    });
    // Far sooner than an unanswered lookup would end; loose, for a loaded machine.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('honours 429 Retry-After: no request to that registry until it has passed', async () => {
    const c = client();
    const before = asked.get('busy.test') ?? 0;
    expect(await check(c, 'busy.test')).toMatchObject({
      outcome: 'degraded',
      errorCode: 'rdap_rate_limited',
      errorMessage: 'The RDAP service of .test limits requests (429); it asks to wait 120 s',
    });
    // The same registry serves other domains: they wait too.
    const other = asked.get('example.test') ?? 0;
    expect(await check(c, 'example.test')).toMatchObject({ errorCode: 'rdap_rate_limited' });
    expect(asked.get('example.test') ?? 0).toBe(other);
    expect(asked.get('busy.test')).toBe(before + 1);
    clock.now += 121_000;
    try {
      expect(await check(c, 'example.test')).toMatchObject({ outcome: 'up' });
      expect(asked.get('example.test')).toBe(other + 1);
    } finally {
      clock.now -= 121_000;
    }
  });

  it('asks the registry at most twice a day per domain, whatever the interval and monitor count', async () => {
    const c = client();
    const before = asked.get('example.test') ?? 0;
    // Ten monitors at once on two host names of one registered domain, then a day of minutes.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => check(c, i % 2 ? 'example.test' : 'api.example.test')),
    );
    const start = clock.now;
    try {
      for (let minute = 0; minute < 24 * 60; minute += 1) {
        clock.now = start + minute * 60_000;
        await check(c, 'example.test');
      }
    } finally {
      clock.now = start;
    }
    expect((asked.get('example.test') ?? 0) - before).toBe(2);
    expect(c.lookups).toBe(2);
  });

  it('judges by the last good answer while the registry fails, for up to a week', async () => {
    const c = client();
    const start = clock.now;
    expect(await check(c, 'soon.test')).toMatchObject({ outcome: 'degraded' });
    registryDown = true;
    try {
      clock.now = start + rdapCacheTimes.found + 1000;
      const run = await check(c, 'soon.test');
      expect(run).toMatchObject({ outcome: 'degraded', errorCode: 'domain_expiring' });
      expect(run.details?.domain).toMatchObject({
        expiresAt: new Date(start + 10 * DAY).toISOString(),
        errorCode: 'rdap_unavailable',
        errorMessage: 'The RDAP service of .test answered 503',
      });
      clock.now = start + 8 * DAY;
      expect(await check(c, 'soon.test')).toMatchObject({
        outcome: 'degraded',
        errorCode: 'rdap_unavailable',
      });
    } finally {
      registryDown = false;
      clock.now = start;
    }
  });
});

describe("an HTTP monitor's domain expiry option", () => {
  const up: CheckRun = {
    outcome: 'up',
    latencyMs: 12,
    phases: noPhases,
    httpStatus: 200,
    errorCode: null,
    errorMessage: null,
    responseSize: 2,
    certExpiresAt: null,
    details: { certificate: null, assertions: [] },
  };

  it('degrades an up run when the registration is expiring, and shows the registration', async () => {
    const run = await withDomainExpiry(up, 'https://shop.soon.test/health', 30, ctx(), client());
    expect(run).toMatchObject({
      outcome: 'degraded',
      errorCode: 'domain_expiring',
      httpStatus: 200,
    });
    expect(run.details?.domain?.domain).toBe('soon.test');
  });

  it('takes it down once expired, leaves a down run as it was, and ignores a failed lookup', async () => {
    const c = client();
    expect(await withDomainExpiry(up, 'https://lapsed.test/', 30, ctx(), c)).toMatchObject({
      outcome: 'down',
      errorCode: 'domain_expired',
    });
    const down = { ...up, outcome: 'down' as const, errorCode: 'http_status' as const };
    expect(await withDomainExpiry(down, 'https://lapsed.test/', 30, ctx(), c)).toMatchObject({
      errorCode: 'http_status',
    });
    const run = await withDomainExpiry(up, 'https://garbage.test/', 30, ctx(), c);
    expect(run).toMatchObject({ outcome: 'up', errorCode: null });
    expect(run.details?.domain?.errorCode).toBe('rdap_bad_answer');
  });

  it('does nothing for an IP address URL', async () => {
    expect(await withDomainExpiry(up, 'http://127.0.0.1:8080/', 30, ctx(), client())).toBe(up);
  });
});

describe('the registered domain of a host', () => {
  it('follows the ICANN public suffix list', () => {
    expect(registeredDomain('www.example.com')).toBe('example.com');
    expect(registeredDomain('a.b.example.co.uk')).toBe('example.co.uk');
    expect(registeredDomain('shop.example.com.au')).toBe('example.com.au');
    // Private suffixes are not registries: the registration that can lapse is github.io's.
    expect(registeredDomain('someone.github.io')).toBe('github.io');
    expect(registeredDomain('Example.COM.')).toBe('example.com');
    expect(registeredDomain('co.uk')).toBeNull();
    expect(registeredDomain('10.0.0.5')).toBeNull();
  });
});

describe('the shipped bootstrap file', () => {
  it('is in RFC 9224 form and names the registries of common TLDs', () => {
    const shipped = loadBootstrapFile(SHIPPED_BOOTSTRAP);
    expect(shipped.services.get('com')).toEqual(['https://rdap.verisign.com/com/v1/']);
    expect(shipped.services.get('org')).toEqual(['https://rdap.publicinterestregistry.org/rdap/']);
    expect(shipped.services.has('de')).toBe(false);
  });
});
