import { Monitor, MonitorList, Problem } from '@pagewatch/contract';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

const ping = { type: 'ping', name: 'Router', host: '10.0.0.1' };
const udp = { type: 'udp', name: 'NTP', host: 'ntp.example.com', port: 123, send: '\\x1b' };
const websocket = { type: 'websocket', name: 'Feed', url: 'wss://feed.example.com/live' };
const grpc = { type: 'grpc', name: 'Orders', host: 'orders.internal', port: 50051 };

describe.each(engines)('ping, UDP, WebSocket and gRPC monitors over the API on %s', (engine) => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    [t, other] = await Promise.all([startTestApp({ engine }), startTestApp({ engine })]);
  });
  afterAll(async () => Promise.all([t.stop(), other.stop()]));

  async function create(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode, res.body).toBe(201);
    return Monitor.parse(res.json());
  }

  async function errors(body: Record<string, unknown>) {
    const res = await t.inject({ method: 'POST', url: '/api/v1/monitors', ...json(body) });
    expect(res.statusCode).toBe(400);
    const problem = Problem.parse(res.json());
    return Object.fromEntries((problem.errors ?? []).map((e) => [e.path, e.message]));
  }

  it('creates each with its defaults and lists it by its target', async () => {
    expect(await create(ping)).toMatchObject({
      ...ping,
      ipFamily: 'auto',
      count: 3,
      packetIntervalMs: 1000,
      lossDegradedPercent: 0,
    });
    expect(await create(udp)).toMatchObject({ ...udp, format: 'text', expect: '' });
    expect(await create(websocket)).toMatchObject({
      ...websocket,
      send: '',
      expectKind: 'none',
      expectPath: '',
      expectValue: '',
      ignoreTls: false,
    });
    expect(await create(grpc)).toMatchObject({ ...grpc, service: '', tls: false });
    const list = MonitorList.parse((await t.inject({ url: '/api/v1/monitors' })).json());
    const target = (name: string) => list.items.find((i) => i.name === name)?.target;
    expect(target('Router')).toBe('10.0.0.1');
    expect(target('NTP')).toBe('udp://ntp.example.com:123');
    expect(target('Feed')).toBe('wss://feed.example.com/live');
    expect(target('Orders')).toBe('grpc://orders.internal:50051');
  });

  it('says what is wrong, field by field', async () => {
    expect(await errors({ ...ping, count: 21 })).toMatchObject({
      count: 'Send at most 20 packets',
    });
    expect(await errors({ ...ping, count: 10, packetIntervalMs: 2000, timeout: 10 })).toMatchObject(
      {
        count: expect.stringMatching(/within the timeout/),
      },
    );
    expect(await errors({ ...ping, packetIntervalMs: 100 })).toMatchObject({
      packetIntervalMs: 'Packets are at least 200 ms apart',
    });
    expect(await errors({ ...udp, format: 'hex', send: 'xyz' })).toMatchObject({
      send: 'Write bytes as pairs of hex digits, e.g. de ad be ef',
    });
    expect(await errors({ ...udp, send: '' })).toMatchObject({ send: expect.any(String) });
    expect(await errors({ ...websocket, url: 'https://feed.example.com' })).toMatchObject({
      url: expect.stringMatching(/ws:\/\/ or wss:\/\//),
    });
    expect(await errors({ ...websocket, expectKind: 'json', expectPath: 'status' })).toMatchObject({
      expectPath: expect.stringMatching(/^Use \$ then/),
    });
    expect(await errors({ ...websocket, expectKind: 'keyword' })).toMatchObject({
      expectValue: 'Enter the text the reply must contain',
    });
    expect(await errors({ ...grpc, service: 'has space' })).toMatchObject({
      service: expect.stringMatching(/letters, digits/),
    });
  });

  it('exports them as code and applies the document elsewhere unchanged', async () => {
    const exported = await t.inject('/api/v1/export?format=json');
    expect(exported.statusCode, exported.body).toBe(200);
    const document = parse(exported.body) as { monitors: { type: string }[] };
    const ours = document.monitors.filter((m) =>
      ['ping', 'udp', 'websocket', 'grpc'].includes(m.type),
    );
    expect(ours.map((m) => m.type).sort()).toEqual(['grpc', 'ping', 'udp', 'websocket']);
    const applied = await other.inject({
      method: 'POST',
      url: '/api/v1/config/apply',
      payload: { document: { ...document, monitors: ours } },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const again = await other.inject('/api/v1/export?format=json');
    const back = parse(again.body) as { monitors: unknown[] };
    expect(back.monitors).toEqual(ours);
  });
});
