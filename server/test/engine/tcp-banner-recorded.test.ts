import { CheckPage, Monitor } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { startTcpServer, type TcpServer } from '../fixtures/tcp-server.js';
import { until } from '../support/until.js';

/** Issue 17: a TCP check with an expected banner kept no trace of what it compared. */
describe.each(engines)('a TCP check with an expected banner, recorded on %s', (engine) => {
  let t: TestApp;
  let ssh: TcpServer;
  beforeAll(async () => {
    ssh = await startTcpServer('banner', { banner: 'SSH-2.0-OpenSSH_9.6\r\n' });
    t = await startTestApp({ engine, scheduler: true });
  });
  afterAll(async () => {
    await t.stop();
    await ssh.close();
  });

  /** Creates the monitor, asks for a check and returns it once its first result is stored. */
  async function checked(expectText: string, send = '') {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      payload: {
        type: 'tcp',
        name: 'SSH',
        host: '127.0.0.1',
        port: ssh.port,
        timeout: 2,
        send,
        expect: expectText,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = Monitor.parse(res.json());
    const now = await t.inject({ method: 'POST', url: `/api/v1/monitors/${id}/check-now` });
    expect(now.statusCode, now.body).toBeLessThan(300);
    const page = await until('a stored result', async () => {
      const got = CheckPage.parse((await t.inject(`/api/v1/monitors/${id}/checks`)).json());
      return got.items.length > 0 ? got : undefined;
    });
    const monitor = Monitor.parse((await t.inject(`/api/v1/monitors/${id}`)).json());
    return { result: page.items[0]!, monitor };
  }

  it('stores the result and the banner it matched, expected against actual', async () => {
    const { result, monitor } = await checked('SSH-2.0');
    expect(result).toMatchObject({ outcome: 'up', errorCode: null, responseSize: 21 });
    expect(result.latencyMs).toBeGreaterThan(0);
    expect(monitor.lastCheck).toMatchObject({ outcome: 'up' });
    expect(monitor.lastDetails).toEqual({
      certificate: null,
      assertions: [
        {
          kind: 'banner',
          target: 'received from the peer',
          expected: 'SSH-2.0',
          actual: 'SSH-2.0-OpenSSH_9.6\\r\\n',
          passed: true,
          soft: false,
        },
      ],
    });
  });

  it('stores a wrong banner as down with what did arrive', async () => {
    const { result, monitor } = await checked('+PONG\\r\\n', 'PING\\r\\n');
    expect(result).toMatchObject({ outcome: 'down', errorCode: 'keyword_missing' });
    expect(result.errorMessage).toContain('SSH-2.0-OpenSSH_9.6');
    expect(monitor.lastDetails?.assertions).toEqual([
      expect.objectContaining({
        kind: 'banner',
        expected: '+PONG\\r\\n',
        actual: 'SSH-2.0-OpenSSH_9.6\\r\\n',
        passed: false,
      }),
    ]);
  });

  it('lists no assertion when nothing is expected (connecting is enough)', async () => {
    const { result, monitor } = await checked('');
    expect(result.outcome).toBe('up');
    expect(monitor.lastDetails).toEqual({ certificate: null, assertions: [] });
  });
});
