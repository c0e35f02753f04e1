import { afterEach, describe, expect, it } from 'vitest';
import { runMongodbCheck, type MongodbCheckSpec } from '../../src/engine/checks/mongodb/index.js';
import type { CheckRun } from '../../src/engine/checks/types.js';
import { startGarbagePeer } from '../fixtures/database-peers.js';
import { refusedPort, startSilentServer } from '../fixtures/target-server.js';

// There is no MongoDB server on this machine and no maintained one in JavaScript: these tests
// cover what can fail before a server answers. Success against a real server is untested here.
const peers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.close()));
});

function check(port: number, overrides: Partial<MongodbCheckSpec> = {}): Promise<CheckRun> {
  return runMongodbCheck(
    {
      host: '127.0.0.1',
      port,
      database: 'admin',
      username: '',
      password: '',
      tls: false,
      ignoreTrust: false,
      timeoutMs: 1000,
      degradedThresholdMs: null,
      ...overrides,
    },
    { signal: new AbortController().signal },
  );
}

describe('a MongoDB peer that is not there or does not speak', () => {
  it('is down with connect_refused when nothing listens', async () => {
    const run = await check(await refusedPort());
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'connect_refused', latencyMs: null });
    expect(run.errorMessage).toMatch(/refused/);
  });

  it('is down with timeout within the timeout when the peer never answers the handshake, and hangs up', async () => {
    const silent = await startSilentServer();
    peers.push(silent);
    const started = Date.now();
    const run = await check(silent.port, { timeoutMs: 600, username: 'app', password: 'pw' });
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'timeout' });
    expect(run.errorMessage).toMatch(/did not answer ping within 600 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
    await expect.poll(() => silent.openConnections()).toBe(0);
  });

  it('is down, not crashed, when the peer answers with something else', async () => {
    const garbage = await startGarbagePeer('HTTP/1.1 400 Bad Request\r\n\r\n');
    peers.push(garbage);
    const run = await check(garbage.port);
    expect(run).toMatchObject({ outcome: 'down', errorCode: 'connection_reset' });
    expect(run.errorMessage).toMatch(/closed the connection/);
  });
});
