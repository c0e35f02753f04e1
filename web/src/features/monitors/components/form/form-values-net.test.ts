import { defaultAlertRules, type Monitor } from '@pagewatch/contract';
import { describe, expect, it } from 'vitest';
import { emptyValues, fromMonitor, toDraft, type FormValues } from './form-values';
import { validate } from './validate';

const of = (type: FormValues['type'], over: Partial<FormValues>): FormValues => ({
  ...emptyValues(type),
  name: 'Net',
  ...over,
});

const common = {
  id: 9,
  name: 'Net',
  interval: 60,
  timeout: 10,
  retries: 1,
  retryInterval: null,
  degradedThresholdMs: null,
  tags: [],
  description: '',
  paused: false,
  status: 'up' as const,
  statusChangedAt: null,
  lastCheck: null,
  lastDetails: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  alerts: defaultAlertRules,
  channelIds: [],
};

describe('ping, UDP, WebSocket and gRPC form values', () => {
  it('builds a ping draft with its packets, and says when they do not fit the timeout', () => {
    const { draft } = toDraft(
      of('ping', { host: '10.0.0.1', count: '5', packetIntervalMs: '500' }),
    );
    expect(draft).toMatchObject({
      type: 'ping',
      host: '10.0.0.1',
      ipFamily: 'auto',
      count: 5,
      packetIntervalMs: 500,
      lossDegradedPercent: 0,
    });
    expect(validate(of('ping', { host: '10.0.0.1' })).valid).toBe(true);
    expect(validate(of('ping', { host: '10.0.0.1', count: 'x' })).errors.count).toBe(
      'Enter a number',
    );
    expect(
      validate(of('ping', { host: '10.0.0.1', count: '20', packetIntervalMs: '1000' })).errors
        .count,
    ).toMatch(/within the timeout/);
  });

  it('builds a UDP draft in hex and checks the hex', () => {
    const v = of('udp', { host: 'h', port: '9', payloadFormat: 'hex', send: 'de ad', expect: '' });
    expect(toDraft(v).draft).toMatchObject({ type: 'udp', port: 9, format: 'hex', send: 'de ad' });
    expect(validate({ ...v, send: 'zz' }).errors.send).toMatch(/pairs of hex digits/);
  });

  it('sends only what the chosen WebSocket expectation uses', () => {
    const v = of('websocket', {
      url: 'ws://h/s',
      expectKind: 'keyword',
      expectPath: '$.left.over',
      expectValue: 'pong',
      ignoreTls: true,
    });
    expect(toDraft(v).draft).toMatchObject({
      expectKind: 'keyword',
      expectPath: '',
      expectValue: 'pong',
      // Plain ws:// has no certificate to ignore.
      ignoreTls: false,
    });
    expect(validate({ ...v, expectKind: 'json', expectPath: 'status' }).errors.expectPath).toMatch(
      /^Use \$ then/,
    );
  });

  it('ignores TLS errors on gRPC only with TLS on', () => {
    const v = of('grpc', { host: 'h', port: '50051', grpcService: 'shop.Orders', ignoreTls: true });
    expect(toDraft(v).draft).toMatchObject({
      service: 'shop.Orders',
      tls: false,
      ignoreTls: false,
    });
    expect(toDraft({ ...v, grpcTls: true }).draft).toMatchObject({ tls: true, ignoreTls: true });
  });

  it('round-trips saved monitors of each type through the form', () => {
    const saved: Monitor[] = [
      {
        ...common,
        type: 'ping',
        host: '::1',
        ipFamily: 'ipv6',
        count: 4,
        packetIntervalMs: 250,
        lossDegradedPercent: 25,
      },
      { ...common, type: 'udp', host: 'h', port: 53, format: 'text', send: 'a\\n', expect: 'b' },
      {
        ...common,
        type: 'websocket',
        url: 'wss://h/s',
        send: '{}',
        expectKind: 'json',
        expectPath: '$.ok',
        expectValue: 'true',
        ignoreTls: true,
        headers: [],
      },
      {
        ...common,
        type: 'grpc',
        host: 'h',
        port: 1,
        service: 's',
        tls: true,
        ignoreTls: false,
        headers: [],
      },
    ];
    for (const m of saved) {
      const { draft } = toDraft(fromMonitor(m));
      const {
        id: _id,
        status: _s,
        statusChangedAt: _c,
        lastCheck: _l,
        lastDetails: _d,
        createdAt: _a,
        updatedAt: _u,
        channelIds: _ch,
        ...settings
      } = m;
      expect(draft, m.type).toMatchObject(settings);
    }
  });

  it('keeps WebSocket headers and gRPC metadata write-only: a stored secret goes back without a value', () => {
    const headers = [
      { name: 'Authorization', secret: true as const, hasValue: true },
      { name: 'x-trace', secret: false as const, hasValue: true, value: '1' },
    ];
    const saved: Monitor[] = [
      {
        ...common,
        type: 'websocket',
        url: 'wss://h/s',
        send: '',
        expectKind: 'none',
        expectPath: '',
        expectValue: '',
        ignoreTls: false,
        headers,
      },
      {
        ...common,
        type: 'grpc',
        host: 'h',
        port: 1,
        service: '',
        tls: false,
        ignoreTls: false,
        headers,
      },
    ];
    for (const m of saved) {
      const values = fromMonitor(m);
      expect(values.headers.map((h) => h.value)).toEqual(['', '1']);
      const { draft } = toDraft(values);
      expect((draft as { headers: unknown }).headers, m.type).toEqual([
        { name: 'Authorization', secret: true },
        { name: 'x-trace', secret: false, value: '1' },
      ]);
    }
  });
});
