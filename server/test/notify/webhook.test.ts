import { createHmac } from 'node:crypto';
import { channelKinds } from '@pagewatch/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { channelEgress } from '../../src/notify/address-guard.js';
import { channelRegistry } from '../../src/notify/channels/registry.js';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import {
  downEvent,
  expectHttpErrorMapping,
  PUBLIC_URL,
  send,
  sendContext,
  sendError,
  targetOf,
} from './support.js';

let r: HttpReceiver;
beforeEach(async () => {
  r = await startHttpReceiver();
});
afterEach(() => r.close());

describe('channel registry', () => {
  it('has a sender for every channel kind', () => {
    expect(Object.keys(channelRegistry).sort()).toEqual([...channelKinds].sort());
    for (const kind of channelKinds) expect(channelRegistry[kind].kind).toBe(kind);
  });
});

describe('webhook', () => {
  it('POSTs the event with title, text and link, plus delivery and event headers', async () => {
    const target = targetOf(
      'webhook',
      { url: `${r.url}/hooks/pw`, headers: [{ name: 'X-Team', value: 'ops' }] },
      {},
    );
    await send(target, downEvent());
    const [req] = r.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/hooks/pw' });
    expect(req!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-team': 'ops',
      'x-pagewatch-delivery': '99',
      'x-pagewatch-event': 'monitor.down',
    });
    expect(req!.headers['x-pagewatch-signature']).toBeUndefined();
    expect(req!.json()).toEqual({
      event: downEvent(),
      title: 'Shop API is down',
      text: expect.stringContaining('Shop API is down: HTTP 503'),
      url: `${PUBLIC_URL}/monitors/42`,
    });
  });

  it("sends the delivery's idempotency key, the same on every resend", async () => {
    const key = 'm:42:r1767225635761.0:monitor.down:0:c7';
    const target = targetOf('webhook', { url: r.url }, {});
    await send(target, downEvent(), sendContext({ idempotencyKey: key }));
    await send(target, downEvent(), sendContext({ idempotencyKey: key }));
    expect(r.requests.map((q) => q.headers['idempotency-key'])).toEqual([key, key]);
    // A row queued before keys existed still gets a stable one: its delivery id.
    await send(target, downEvent());
    expect(r.requests[2]!.headers['idempotency-key']).toBe('pagewatch-delivery-99');
  });

  it('uses the configured method', async () => {
    await send(targetOf('webhook', { url: r.url, method: 'PUT' }, {}), downEvent());
    expect(r.requests[0]!.method).toBe('PUT');
  });

  it('signs "<timestamp>.<raw body>" with HMAC-SHA256 when a secret is set', async () => {
    const secret = 'whsec-test-123';
    await send(targetOf('webhook', { url: r.url }, { signingSecret: secret }), downEvent());
    const req = r.requests[0]!;
    const timestamp = String(req.headers['x-pagewatch-timestamp']);
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const expected = createHmac('sha256', secret).update(`${timestamp}.${req.body}`).digest('hex');
    expect(req.headers['x-pagewatch-signature']).toBe(`sha256=${expected}`);
  });

  it('cannot have its Pagewatch headers overridden by custom headers', async () => {
    const headers = [{ name: 'X-Pagewatch-Event', value: 'forged' }];
    await send(targetOf('webhook', { url: r.url, headers }, {}), downEvent());
    expect(r.requests[0]!.headers['x-pagewatch-event']).toBe('monitor.down');
  });

  it('maps receiver errors', async () => {
    await expectHttpErrorMapping(r, targetOf('webhook', { url: r.url }, {}));
  });

  it('refuses a loopback URL when private targets are blocked', async () => {
    const err = await sendError(
      targetOf('webhook', { url: r.url }, {}),
      downEvent(),
      sendContext({ egress: channelEgress(true) }),
    );
    expect(err.permanent).toBe(true);
    expect(r.connections()).toBe(0);
  });
});
