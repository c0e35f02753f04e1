import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootstrapFileFor,
  loadBootstrapFile,
  SHIPPED_BOOTSTRAP,
} from '../../src/engine/checks/domain/bootstrap.js';
import { runCli } from '../support/cli.js';

const fresh = JSON.stringify({
  version: '1.0',
  publication: '2026-11-27T10:00:00Z',
  description: 'RDAP bootstrap file for Domain Name System registrations',
  services: [
    [['com', 'net'], ['https://rdap.verisign.com/com/v1/']],
    [['de'], ['https://rdap.denic.example/']],
  ],
});

/** `pagewatch rdap-bootstrap refresh` against a loopback copy of IANA's file, and offline. */
describe('npx pagewatch rdap-bootstrap refresh', () => {
  let server: Server;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pagewatch-rdap-'));
    server = createServer((req, res) => {
      if (req.url === '/dns.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(fresh);
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>captive portal</html>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('uses the shipped file until a refreshed one is in the data directory', () => {
    expect(bootstrapFileFor(dir)).toBe(SHIPPED_BOOTSTRAP);
  });

  it('writes the downloaded file into the data directory, where it wins over the shipped one', async () => {
    const run = await runCli(['rdap-bootstrap', 'refresh', '--from', `${base}/dns.json`], {
      PAGEWATCH_DATA_DIR: dir,
    });
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toBe(
      `Wrote ${path.join(dir, 'rdap-dns.json')}: RDAP services for 3 TLDs. A running Pagewatch uses it within 5 minutes.\n`,
    );
    expect(bootstrapFileFor(dir)).toBe(path.join(dir, 'rdap-dns.json'));
    expect(loadBootstrapFile(bootstrapFileFor(dir)).services.get('de')).toEqual([
      'https://rdap.denic.example/',
    ]);
  });

  it('fails clearly and changes nothing when the download fails (no internet access)', async () => {
    const before = fs.readFileSync(path.join(dir, 'rdap-dns.json'), 'utf8');
    // A closed loopback port stands for a machine without a route out.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}/dns.json`;
    const run = await runCli(['rdap-bootstrap', 'refresh', '--from', url, '--data-dir', dir]);
    expect(run.code).toBe(2);
    expect(run.err).toContain(
      `Could not download ${url} (ECONNREFUSED). This machine may have no internet access; nothing was changed`,
    );
    expect(fs.readFileSync(path.join(dir, 'rdap-dns.json'), 'utf8')).toBe(before);
  });

  it('refuses what is not a bootstrap file', async () => {
    const run = await runCli([
      'rdap-bootstrap',
      'refresh',
      '--from',
      `${base}/portal`,
      '--data-dir',
      dir,
    ]);
    expect(run.code).toBe(1);
    expect(run.err).toContain('is not an RDAP bootstrap file: The bootstrap file is not JSON');
  });
});
