import { afterEach, describe, expect, it } from 'vitest';
import { channelEgress, subscriberWebhookEgress } from '../../src/notify/address-guard.js';
import { ChannelError } from '../../src/notify/channel.js';
import {
  MAX_RESPONSE_BYTES,
  outboundRequest,
  outboundSend,
  parseRetryAfter,
  type OutboundContext,
} from '../../src/notify/outbound.js';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import { refusedPort } from '../fixtures/target-server.js';

const receivers: HttpReceiver[] = [];
async function receiver(): Promise<HttpReceiver> {
  const r = await startHttpReceiver();
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const ctx: OutboundContext = { timeoutMs: 5000, egress: channelEgress(false) };

async function failure(promise: Promise<unknown>): Promise<ChannelError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChannelError);
  return err as ChannelError;
}

describe('answers', () => {
  it('returns status, headers and body of any answer', async () => {
    const r = await receiver();
    r.answer(418, { body: 'teapot', headers: { 'x-a': 'b' } });
    const res = await outboundRequest({ url: `${r.url}/x?y=1`, body: 'hi' }, ctx);
    expect(res).toMatchObject({ status: 418, body: 'teapot', headers: { 'x-a': 'b' } });
    expect(r.requests[0]).toMatchObject({
      method: 'POST',
      path: '/x',
      query: { y: '1' },
      body: 'hi',
    });
  });

  it('maps 500 to a transient error quoting the first 300 characters of the body', async () => {
    const r = await receiver();
    r.answer(500, { body: `boom ${'x'.repeat(1000)}` });
    const err = await failure(outboundSend({ url: r.url }, ctx));
    expect(err.permanent).toBe(false);
    expect(err.message).toBe(`HTTP 500: boom ${'x'.repeat(295)}`);
  });

  it('maps 400 and 404 to permanent errors, 408 and 429 to transient ones', async () => {
    const r = await receiver();
    for (const status of [400, 404, 408, 429]) {
      r.answer(status, { body: 'no' });
      const err = await failure(outboundSend({ url: r.url }, ctx));
      expect([status, err.permanent]).toEqual([status, status === 400 || status === 404]);
    }
  });

  it('reads Retry-After in seconds and as an HTTP date', async () => {
    const r = await receiver();
    r.rateLimit('7');
    expect((await failure(outboundSend({ url: r.url }, ctx))).retryAfterMs).toBe(7000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
  });

  it('stops reading a body after 64 KiB', async () => {
    const r = await receiver();
    r.huge(5 * 1024 * 1024);
    const res = await outboundRequest({ url: r.url }, ctx);
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(MAX_RESPONSE_BYTES);
  });

  it('gives up after the time limit, covering a receiver that never answers', async () => {
    const r = await receiver();
    r.hang();
    const err = await failure(outboundRequest({ url: r.url }, { ...ctx, timeoutMs: 300 }));
    expect(err).toMatchObject({ permanent: false, message: 'timed out after 0.3 s' });
    await r.waitForRequests(1);
  });

  it('gives up after the time limit while the body is still coming', async () => {
    const r = await receiver();
    r.hang(1, { afterHeaders: true });
    const err = await failure(outboundRequest({ url: r.url }, { ...ctx, timeoutMs: 300 }));
    expect(err).toMatchObject({ permanent: false, message: 'timed out after 0.3 s' });
  });

  it('stops when the caller aborts (shutdown), as a transient failure', async () => {
    const r = await receiver();
    r.hang();
    const controller = new AbortController();
    const pending = failure(outboundRequest({ url: r.url }, { ...ctx, signal: controller.signal }));
    await r.waitForRequests(1);
    controller.abort();
    expect(await pending).toMatchObject({ permanent: false, message: 'cancelled' });
  });

  it('names a refused connection without the URL path', async () => {
    const port = await refusedPort();
    const err = await failure(outboundRequest({ url: `http://127.0.0.1:${port}/secret` }, ctx));
    expect(err).toMatchObject({
      permanent: false,
      message: `connection refused (127.0.0.1:${port})`,
    });
  });
});

describe('redirects', () => {
  it('follows a redirect on the same host', async () => {
    const r = await receiver();
    r.redirect('/moved', { status: 307 });
    const res = await outboundSend({ url: `${r.url}/hook`, body: '{}' }, ctx);
    expect(res.status).toBe(200);
    expect(r.requests.map((q) => [q.method, q.path, q.body])).toEqual([
      ['POST', '/hook', '{}'],
      ['POST', '/moved', '{}'],
    ]);
  });

  it('refuses a redirect to another host or port, permanently', async () => {
    const r = await receiver();
    const other = await receiver();
    r.redirect(`${other.url}/steal`);
    const err = await failure(outboundSend({ url: r.url }, ctx));
    expect(err.permanent).toBe(true);
    expect(err.message).toContain(`redirect to another host (127.0.0.1:${other.port})`);
    expect(other.connections()).toBe(0);
  });

  it('refuses a redirect it cannot parse', async () => {
    const r = await receiver();
    r.redirect('http://[bad');
    const err = await failure(outboundSend({ url: r.url }, ctx));
    expect(err).toMatchObject({ permanent: true, message: 'HTTP 302: invalid redirect' });
  });

  it('stops after three redirects', async () => {
    const r = await receiver();
    r.redirect('/again', { times: 4 });
    const err = await failure(outboundSend({ url: r.url }, ctx));
    expect(err.message).toContain('too many redirects');
    expect(r.requests).toHaveLength(4);
  });
});

describe('address guard', () => {
  const refusal = (ip: string) =>
    `refused: ${ip} is a private address (PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS)`;
  const metadata = (ip: string) => `refused: ${ip} is a link-local or cloud metadata address`;

  it('always refuses the cloud metadata address, before connecting', async () => {
    const err = await failure(outboundRequest({ url: 'http://169.254.169.254/latest' }, ctx));
    expect(err).toMatchObject({ permanent: true, message: metadata('169.254.169.254') });
  });

  it('refuses IPv4-mapped IPv6 and link-local IPv6 literals', async () => {
    for (const [url, message] of [
      [
        'http://[::ffff:169.254.169.254]/',
        'refused: ::ffff:a9fe:a9fe is a link-local or cloud metadata address',
      ],
      [
        'http://[64:ff9b::169.254.169.254]/',
        'refused: 64:ff9b::a9fe:a9fe carries 169.254.169.254, a link-local or cloud metadata address',
      ],
      ['http://[fe80::1]/', metadata('fe80::1')],
      ['http://[fd00:ec2::254]/', metadata('fd00:ec2::254')],
      ['http://0xa9fea9fe/', metadata('169.254.169.254')],
    ]) {
      expect((await failure(outboundRequest({ url: url! }, ctx))).message).toBe(message);
    }
  });

  it('allows loopback by default and refuses it with blockPrivate, without connecting', async () => {
    const r = await receiver();
    expect((await outboundSend({ url: r.url }, ctx)).status).toBe(200);
    const blocked = { ...ctx, egress: channelEgress(true) };
    const err = await failure(outboundSend({ url: r.url }, blocked));
    expect(err).toMatchObject({ permanent: true, message: refusal('127.0.0.1') });
    const mapped = await failure(
      outboundSend({ url: `http://[::ffff:127.0.0.1]:${r.port}` }, blocked),
    );
    expect(mapped.message).toBe(
      'refused: ::ffff:7f00:1 carries 127.0.0.1, a private address (PAGEWATCH_BLOCK_PRIVATE_NOTIFY_TARGETS)',
    );
    expect(r.connections()).toBe(1);
  });

  it('checks localhost names before any lookup or connection', async () => {
    const r = await receiver();
    const err = await failure(
      outboundSend({ url: `http://localhost:${r.port}/` }, { ...ctx, egress: channelEgress(true) }),
    );
    expect(err).toMatchObject({ permanent: true, message: refusal('localhost') });
    expect(r.connections()).toBe(0);
  });

  // Spellings that reach this receiver on 127.0.0.1: each is sent once without blockPrivate (so
  // it demonstrably arrives), then with it, when nothing may arrive.
  it.each([
    ['http://127.0.0.1.:PORT/hook'],
    ['http://2130706433:PORT/hook'],
    ['http://0x7f000001:PORT/hook'],
    ['http://0177.0.0.1:PORT/hook'],
    ['http://0x7f.1:PORT/hook'],
    ['http://127.1:PORT/hook'],
    ['http://0:PORT/hook'],
    ['http://0.0.0.0:PORT/hook'],
    ['http://[::ffff:127.0.0.1]:PORT/hook'],
    ['http://[::FFFF:7F00:0001]:PORT/hook'],
    ['http://[0:0:0:0:0:ffff:7f00:1]:PORT/hook'],
    ['http://localhost:PORT/hook'],
  ])('%s arrives by default and is refused with blockPrivate', async (spelling) => {
    const r = await receiver();
    const url = spelling.replace('PORT', String(r.port));
    expect((await outboundSend({ url, body: '{}' }, ctx)).status).toBe(200);
    expect(r.requests).toHaveLength(1);
    const err = await failure(
      outboundSend({ url, body: '{}' }, { ...ctx, egress: channelEgress(true) }),
    );
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/^refused: /);
    expect(r.connections()).toBe(1);
  });

  it('names the setting that refused a private address: a subscriber webhook has its own', async () => {
    const r = await receiver();
    const visitors = { ...ctx, egress: subscriberWebhookEgress(false) };
    const err = await failure(outboundSend({ url: r.url }, visitors));
    expect(err).toMatchObject({
      permanent: true,
      message:
        'refused: 127.0.0.1 is a private address (PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS)',
    });
    const allowed = { ...ctx, egress: subscriberWebhookEgress(true) };
    expect((await outboundSend({ url: r.url }, allowed)).status).toBe(200);
    expect(r.connections()).toBe(1);
  });

  it('refuses multicast and broadcast whatever the settings, before connecting', async () => {
    for (const [url, message] of [
      ['http://224.0.0.1/', 'refused: 224.0.0.1 is a multicast or broadcast address'],
      ['http://4294967295/', 'refused: 255.255.255.255 is a multicast or broadcast address'],
      ['http://[ff02::1]/', 'refused: ff02::1 is a multicast or broadcast address'],
      [
        'http://[64:ff9b::239.255.255.250]/',
        'refused: 64:ff9b::efff:fffa carries 239.255.255.250, a multicast or broadcast address',
      ],
    ]) {
      for (const egress of [channelEgress(false), subscriberWebhookEgress(true)]) {
        const err = await failure(outboundRequest({ url: url! }, { ...ctx, egress }));
        expect(err).toMatchObject({ permanent: true, message });
      }
    }
  });

  it('refuses trailing-dot localhost with blockPrivate, which no resolver here answers', async () => {
    const r = await receiver();
    const url = `http://localhost.:${r.port}/hook`;
    const err = await failure(outboundSend({ url }, { ...ctx, egress: channelEgress(true) }));
    expect(err).toMatchObject({ permanent: true, message: refusal('localhost.') });
    expect(r.connections()).toBe(0);
  });
});
