import { Monitor, Problem, PushPingReply, type CheckResult } from '@pagewatch/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { PUSH_RATE } from '../../src/http/routes/public/push.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { post } from '../support/http.js';
import { openEventStream, type EventStream } from '../support/sse.js';

/** Time the test can move forward: the app, its scheduler and its limiter all read it. */
const clock = { offset: 0, now: () => Date.now() + clock.offset };

/** Every form of ping a job can send, over real HTTP, with the engine recording them. */
describe.each(engines)('the push endpoint on %s', (engine) => {
  let t: TestApp;
  let stream: EventStream;
  beforeAll(async () => {
    t = await startTestApp({ engine, scheduler: true, listen: true, clock });
    stream = await openEventStream(t.url, undefined, t.owner.headers);
  });
  afterAll(async () => {
    stream.close();
    await t.stop();
  });

  /** A push monitor the scheduler has picked up, so pings can reach it. */
  async function pushMonitor(overrides: Record<string, unknown> = {}) {
    const res = await post(t, '/api/v1/monitors', {
      type: 'push',
      name: 'Backup job',
      interval: 300,
      retries: 0,
      ...overrides,
    });
    expect(res.status).toBe(201);
    const m = Monitor.parse(res.body);
    if (m.type !== 'push' || !m.pushToken) throw new Error('expected a push monitor with a token');
    // checkNow is true once the scheduler holds the monitor; for push it records nothing.
    await vi.waitFor(() => expect(t.engine!.checkNow(m.id)).toBe(true));
    return { id: m.id, token: m.pushToken, url: `${t.url}/api/push/${m.pushToken}` };
  }

  const seen = new Set<number>();
  /** The next result recorded for the monitor (results are written in batches, then published). */
  async function nextResult(monitorId: number): Promise<CheckResult> {
    const got = await stream.waitFor(
      (e) => e.kind === 'result' && e.monitorId === monitorId && !seen.has(e.result.id),
    );
    if (got.event.kind !== 'result') throw new Error('unreachable');
    seen.add(got.event.result.id);
    return got.event.result;
  }

  it('takes a GET ping as up, answers plain OK, and the monitor goes up', async () => {
    const m = await pushMonitor();
    const res = await fetch(m.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('OK');
    expect(await nextResult(m.id)).toMatchObject({
      outcome: 'up',
      errorCode: null,
      errorMessage: null,
      latencyMs: null,
    });
    const flip = await stream.waitFor(
      (e) => e.kind === 'status' && e.monitorId === m.id && e.to === 'up',
    );
    expect(flip.event).toMatchObject({ from: 'pending' });
    const read = Monitor.parse((await t.inject({ url: `/api/v1/monitors/${m.id}` })).json());
    expect(read).toMatchObject({ status: 'up', lastPingAt: expect.any(String) });
  });

  it('answers JSON to callers that ask for it', async () => {
    const m = await pushMonitor();
    const res = await fetch(m.url, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(PushPingReply.parse(await res.json())).toEqual({ ok: true, recorded: 'up' });
    await nextResult(m.id);
  });

  it('keeps msg as the message, for up as for down, and status=down is push_reported_down', async () => {
    const m = await pushMonitor();
    await fetch(`${m.url}?msg=${encodeURIComponent('42 files copied')}`);
    expect(await nextResult(m.id)).toMatchObject({
      outcome: 'up',
      errorCode: null,
      errorMessage: '42 files copied',
    });
    await fetch(`${m.url}?status=down&msg=${encodeURIComponent('disk full')}`);
    expect(await nextResult(m.id)).toMatchObject({
      outcome: 'down',
      errorCode: 'push_reported_down',
      errorMessage: 'disk full',
    });
    await fetch(`${m.url}?msg=${'x'.repeat(1500)}`);
    expect((await nextResult(m.id)).errorMessage).toBe('x'.repeat(1000));
  });

  it('takes a POST body of any content type as the message when there is no msg', async () => {
    const m = await pushMonitor();
    const log = 'rsync: 3 files\n'.repeat(100);
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
    ]) {
      const res = await fetch(m.url, {
        method: 'POST',
        body: log,
        headers: { 'content-type': type },
      });
      expect(res.status, type).toBe(200);
      expect((await nextResult(m.id)).errorMessage).toBe(log.trim().slice(0, 1000));
    }
    await fetch(`${m.url}?msg=short`, { method: 'POST', body: log });
    expect((await nextResult(m.id)).errorMessage).toBe('short');
    const empty = await fetch(m.url, { method: 'POST' });
    expect(empty.status).toBe(200);
    expect((await nextResult(m.id)).errorMessage).toBeNull();
  });

  it('refuses a body over 64 KiB with payload_too_large', async () => {
    const m = await pushMonitor();
    const res = await fetch(m.url, { method: 'POST', body: 'x'.repeat(65 * 1024) });
    expect(res.status).toBe(413);
    expect(Problem.parse(await res.json()).type).toBe('payload_too_large');
  });

  it('records ping= as the run duration, and a slow run as degraded past the threshold', async () => {
    const m = await pushMonitor({ degradedThresholdMs: 60_000 });
    await fetch(`${m.url}?ping=1234.5`);
    expect(await nextResult(m.id)).toMatchObject({ outcome: 'up', latencyMs: 1234.5 });
    await fetch(`${m.url}?ping=90000`);
    expect(await nextResult(m.id)).toMatchObject({
      outcome: 'degraded',
      errorCode: 'degraded_latency',
      latencyMs: 90_000,
    });
  });

  it('times a run from /start to its success ping, recording nothing for the start', async () => {
    const m = await pushMonitor();
    const started = await fetch(`${m.url}/start`, { headers: { accept: 'application/json' } });
    expect(PushPingReply.parse(await started.json())).toEqual({ ok: true, recorded: 'started' });
    clock.offset += 90_000;
    await fetch(m.url);
    const result = await nextResult(m.id);
    expect(result.outcome).toBe('up');
    // 90 s on the test's clock, plus the real milliseconds the requests took.
    expect(result.latencyMs).toBeGreaterThanOrEqual(90_000);
    expect(result.latencyMs).toBeLessThan(100_000);
    // The start is used up: the next ping has no duration.
    await fetch(m.url);
    expect((await nextResult(m.id)).latencyMs).toBeNull();
  });

  it('times a failed run from /start to /fail', async () => {
    const m = await pushMonitor();
    await fetch(`${m.url}/start`);
    clock.offset += 5_000;
    const res = await fetch(`${m.url}/fail?msg=exit%202`);
    expect(await res.text()).toBe('OK');
    const result = await nextResult(m.id);
    expect(result).toMatchObject({
      outcome: 'down',
      errorCode: 'push_reported_down',
      errorMessage: 'exit 2',
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(5_000);
  });

  it('reads an exit status as Healthchecks does: 0 up, anything else down', async () => {
    const m = await pushMonitor();
    await fetch(`${m.url}/0`);
    expect((await nextResult(m.id)).outcome).toBe('up');
    await fetch(`${m.url}/3`);
    expect(await nextResult(m.id)).toMatchObject({
      outcome: 'down',
      errorCode: 'push_reported_down',
      errorMessage: 'The job reported a failure',
    });
    // /fail and exit statuses win over ?status.
    await fetch(`${m.url}/0?status=down`);
    expect((await nextResult(m.id)).outcome).toBe('up');
    for (const bad of ['256', 'finish', '-1']) {
      const res = await fetch(`${m.url}/${bad}`);
      expect(res.status, bad).toBe(404);
    }
  });

  it('answers 404 problem+json to unknown and malformed tokens, and 400 to a bad query', async () => {
    for (const token of ['A'.repeat(32), 'short', 'A'.repeat(31) + '-']) {
      const res = await fetch(`${t.url}/api/push/${token}`);
      expect(res.status, token).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(Problem.parse(await res.json()).type).toBe('not_found');
    }
    const m = await pushMonitor();
    for (const query of ['status=maybe', 'ping=-1', 'ping=soon', 'ping=86400001']) {
      const res = await fetch(`${m.url}?${query}`);
      expect(res.status, query).toBe(400);
      expect(Problem.parse(await res.json()).type).toBe('validation_failed');
    }
  });

  it('stops answering to the old token once it is rotated', async () => {
    const m = await pushMonitor();
    const rotated = await post(t, `/api/v1/monitors/${m.id}/push-token`);
    expect(rotated.status).toBe(200);
    expect((await fetch(m.url)).status).toBe(404);
    const fresh = Monitor.parse(rotated.body);
    if (fresh.type !== 'push') throw new Error('expected push');
    await vi.waitFor(async () =>
      expect((await fetch(`${t.url}/api/push/${fresh.pushToken}`)).status).toBe(200),
    );
    await nextResult(m.id);
  });

  it('refuses pings to a paused monitor with 409 and records nothing', async () => {
    const m = await pushMonitor();
    await post(t, `/api/v1/monitors/${m.id}/pause`);
    const res = await fetch(m.url);
    expect(res.status).toBe(409);
    expect(Problem.parse(await res.json()).detail).toMatch(/paused/);
    const checks = await t.inject({ url: `/api/v1/monitors/${m.id}/checks` });
    expect(checks.json()).toMatchObject({ items: [] });
  });

  it('limits pings per token: a burst, then 429 with Retry-After, other tokens unaffected', async () => {
    const m = await pushMonitor();
    const other = await pushMonitor({ name: 'Other job' });
    for (let i = 0; i < PUSH_RATE.burst; i++) expect((await fetch(m.url)).status).toBe(200);
    const limited = await fetch(m.url);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Problem.parse(await limited.json()).type).toBe('rate_limited');
    expect((await fetch(other.url)).status).toBe(200);
    // One request's worth of time later, one more is let through.
    clock.offset += PUSH_RATE.refillMs;
    expect((await fetch(m.url)).status).toBe(200);
  });

  it('needs no credentials and touches no sign-in state, whatever headers come along', async () => {
    const m = await pushMonitor();
    const res = await fetch(m.url, {
      method: 'POST',
      headers: { authorization: 'Bearer nonsense', cookie: 'pw_session=forged' },
    });
    expect(res.status).toBe(200);
    for (let i = 0; i < 12; i++) await fetch(`${t.url}/api/push/${'Z'.repeat(32)}`);
    const failures = await repositories(t.database).loginFailures.since('ip:127.0.0.1', 0);
    expect(failures).toEqual([]);
  });
});

describe('the push endpoint in a process without the scheduler', () => {
  it('takes the ping and hands it to the scheduling process through the database', async () => {
    const t = await startTestApp({ engine: 'sqlite', listen: true });
    try {
      const res = await post(t, '/api/v1/monitors', { type: 'push', name: 'Job' });
      const m = Monitor.parse(res.body);
      if (m.type !== 'push') throw new Error('expected push');
      const ping = await fetch(`${t.url}/api/push/${m.pushToken}?msg=done`);
      expect(ping.status).toBe(200);
      const waiting = await t.database.db
        .selectFrom('check_requests')
        .select(['monitor_id', 'kind', 'run'])
        .execute();
      expect(waiting).toHaveLength(1);
      expect(waiting[0]).toMatchObject({ monitor_id: m.id, kind: 'ping' });
      expect(JSON.parse(waiting[0]!.run!)).toMatchObject({ outcome: 'up' });
    } finally {
      await t.stop();
    }
  });
});
