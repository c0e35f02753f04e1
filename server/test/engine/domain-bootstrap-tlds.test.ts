import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBootstrap, SHIPPED_BOOTSTRAP } from '../../src/engine/checks/domain/bootstrap.js';
import { RdapClient } from '../../src/engine/checks/domain/client.js';
import { runDomainCheck } from '../../src/engine/checks/domain/index.js';

// The shipped bootstrap beyond com/net/org: ccTLDs (one with second-level registrations) and new
// gTLDs reach the registry the file names for them. Every base URL is moved onto a loopback
// registry that keeps the original host and path in its own path, so the path a lookup arrives
// on says which registry it was meant for.

const DAY = 86_400_000;
const now = Date.parse('2026-11-27T12:00:00Z');
const asked: string[] = [];
let server: Server;
let client: RdapClient;

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const name = decodeURIComponent((req.url ?? '').split('/domain/')[1] ?? '');
    res.writeHead(200, { 'content-type': 'application/rdap+json' });
    res.end(
      JSON.stringify({
        objectClassName: 'domain',
        ldhName: name,
        events: [{ eventAction: 'expiration', eventDate: new Date(now + 90 * DAY).toISOString() }],
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const shipped = readFileSync(SHIPPED_BOOTSTRAP, 'utf8');
  // https://rdap.nominet.uk/uk/ → http://127.0.0.1:<port>/rdap.nominet.uk/uk/
  const moved = shipped.replace(/https?:\/\//g, `http://127.0.0.1:${port}/`);
  client = new RdapClient({ bootstrap: parseBootstrap(moved), now: () => now });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const check = (domain: string) =>
  runDomainCheck(
    { domain, warnDays: 30, timeoutMs: 3000 },
    { signal: new AbortController().signal, now },
    client,
  );

describe('the shipped RDAP bootstrap beyond com, net and org', () => {
  it.each([
    // ccTLDs: .uk registers under co.uk (the public suffix list), .nl and .fr at the second level
    ['www.shop.co.uk', '/rdap.nominet.uk/uk/domain/shop.co.uk'],
    ['example.nl', '/rdap.sidn.nl/domain/example.nl'],
    ['status.example.fr', '/rdap.nic.fr/domain/example.fr'],
    ['example.ca', '/rdap.ca.fury.ca/rdap/domain/example.ca'],
    // new gTLDs, on shared back ends with a path of their own
    ['api.example.app', '/pubapi.registry.google/rdap/domain/example.app'],
    ['example.dev', '/pubapi.registry.google/rdap/domain/example.dev'],
    ['example.xyz', '/rdap.centralnic.com/xyz/domain/example.xyz'],
    ['example.shop', '/rdap.gmoregistry.net/rdap/domain/example.shop'],
    ['example.academy', '/rdap.identitydigital.services/rdap/domain/example.academy'],
  ])('%s is asked of the registry the file names for its TLD', async (domain, path) => {
    const run = await check(domain);
    expect(run, run.errorMessage ?? '').toMatchObject({ outcome: 'up', errorCode: null });
    expect(asked).toContain(path);
  });

  it('a TLD the file does not name is rdap_unsupported, asking no one', async () => {
    const before = asked.length;
    const run = await check('example.museum');
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'rdap_unsupported' });
    expect(asked.length).toBe(before);
  });
});
