import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AuditPage, Problem, RdapBootstrapStatus } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootstrapFileFor,
  loadBootstrapFile,
  servicesFor,
} from '../../src/engine/checks/domain/bootstrap.js';
import { RdapClient } from '../../src/engine/checks/domain/client.js';
import { refusedPort } from '../fixtures/target-server.js';
import { startTestApp, type Identity, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

// Settings → General → Domain expiry: an admin refreshes the RDAP bootstrap file from a
// loopback server serving one (IANA's place in production), sees its date and source; the
// refresh is audited, and what is not a bootstrap file (or no answer) changes nothing.

const FILE = {
  description: 'RDAP bootstrap file for Domain Name System registrations',
  publication: '2026-11-20T17:00:01Z',
  version: '1.0',
  services: [
    [['test', 'example'], ['http://127.0.0.1:1/']],
    [['museum'], ['https://rdap.nic.museum/']],
  ],
};

describe.each(engines)('the RDAP bootstrap refresh over the API on %s', (engine) => {
  let t: TestApp;
  let admin: Identity;
  let editor: Identity;
  let server: Server;
  let base: string;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-rdap-bootstrap-'));
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/dns.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(FILE));
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>Not the file</html>');
      }
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startTestApp({ engine, config: { dataDir } });
    [admin, editor] = await Promise.all([t.identity('admin'), t.identity('editor')]);
  });
  afterAll(async () => {
    await t?.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const status = async (who: Identity) => {
    const res = await t.inject({ url: '/api/v1/settings/rdap-bootstrap', headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return RdapBootstrapStatus.parse(res.json());
  };
  const refresh = (who: Identity, body: unknown) =>
    t.inject({
      method: 'POST',
      url: '/api/v1/settings/rdap-bootstrap/refresh',
      payload: JSON.stringify(body),
      headers: { ...who.headers, 'content-type': 'application/json' },
    });

  it('shows the shipped file, its date and TLD count, to admins only', async () => {
    expect(await status(admin)).toMatchObject({
      source: 'shipped',
      publication: '2026-11-27T00:00:00.000Z',
      tlds: expect.any(Number),
      refreshedAt: null,
      refreshedFrom: null,
      defaultSource: 'https://data.iana.org/rdap/dns.json',
    });
    const read = await t.inject({
      url: '/api/v1/settings/rdap-bootstrap',
      headers: editor.headers,
    });
    expect(read.statusCode).toBe(403);
    expect((await refresh(editor, { from: `${base}/dns.json` })).statusCode).toBe(403);
  });

  it('refreshes from the given source, says when and from where, and audits it', async () => {
    const res = await refresh(admin, { from: `${base}/dns.json` });
    expect(res.statusCode, res.body).toBe(200);
    const after = RdapBootstrapStatus.parse(res.json());
    expect(after).toMatchObject({
      source: 'refreshed',
      publication: '2026-11-20T17:00:01.000Z',
      tlds: 3,
      refreshedFrom: `${base}/dns.json`,
    });
    expect(Date.parse(after.refreshedAt!)).not.toBeNaN();
    expect(await status(admin)).toEqual(after);
    expect(bootstrapFileFor(dataDir)).toBe(path.join(dataDir, 'rdap-dns.json'));
    const log = await t.inject({
      url: '/api/v1/audit?action=settings.updated',
      headers: admin.headers,
    });
    const lines = AuditPage.parse(log.json()).items;
    expect(lines.some((l) => l.summary.includes(`RDAP bootstrap file`))).toBe(true);
    expect(lines.find((l) => l.summary.includes('RDAP'))?.summary).toContain(`${base}/dns.json`);
  });

  it('changes nothing when the answer is not a bootstrap file or nothing answers', async () => {
    const wrong = await refresh(admin, { from: `${base}/portal.html` });
    expect(wrong.statusCode).toBe(400);
    expect(Problem.parse(wrong.json()).errors?.[0]).toMatchObject({
      path: 'from',
      message: expect.stringMatching(/^Not an RDAP bootstrap file/),
    });
    const gone = await refresh(admin, { from: `http://127.0.0.1:${await refusedPort()}/dns.json` });
    expect(gone.statusCode).toBe(503);
    expect(Problem.parse(gone.json()).detail).toMatch(/Could not download/);
    expect(await status(admin)).toMatchObject({ tlds: 3, refreshedFrom: `${base}/dns.json` });
    const bad = await refresh(admin, { from: 'ftp://example.com/dns.json' });
    expect(bad.statusCode).toBe(400);
  });

  it('reaches a running client within 5 minutes, without a restart', () => {
    let now = Date.parse('2026-11-27T12:00:00Z');
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-rdap-reload-'));
    try {
      const client = new RdapClient({
        bootstrap: () => loadBootstrapFile(bootstrapFileFor(other)),
        now: () => now,
      });
      expect(servicesFor(client.bootstrap(), 'example.museum')).toEqual([]);
      fs.copyFileSync(path.join(dataDir, 'rdap-dns.json'), path.join(other, 'rdap-dns.json'));
      now += 4 * 60_000;
      expect(servicesFor(client.bootstrap(), 'example.museum')).toEqual([]);
      now += 60_000;
      expect(servicesFor(client.bootstrap(), 'example.museum')).toEqual([
        'https://rdap.nic.museum/',
      ]);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
