import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repositories } from '../../src/db/repositories/index.js';
import { confirmNotice } from '../../src/domain/subscriber-notices.js';
import { channelEgress } from '../../src/notify/address-guard.js';
import { ChannelError } from '../../src/notify/channel.js';
import { subscriberSender } from '../../src/notify/subscriber-sender.js';
import { SecretBox } from '../../src/lib/crypto.js';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { insertStatusPage } from '../support/status-pages.js';

// A visitor's webhook is refused at the form exactly when a send would refuse it: the same guard
// judges both (PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS off refuses private addresses).
describe.each(engines)('subscriber webhook addresses on %s', (engine) => {
  let strict: TestApp;
  let lenient: TestApp;
  let visitor = 0;
  const receivers: HttpReceiver[] = [];

  beforeAll(async () => {
    strict = await startTestApp({ engine, config: { allowPrivateSubscriberWebhooks: false } });
    lenient = await startTestApp({
      engine,
      sharing: strict,
      config: { allowPrivateSubscriberWebhooks: true },
    });
  });
  afterAll(async () => {
    await lenient.stop();
    await strict.stop();
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  async function webhookPage(): Promise<string> {
    const slug = `guard-${engine}-${++visitor}`;
    await insertStatusPage(strict.database, strict.hub, {
      slug,
      subscriptions: { email: false, webhook: true },
    });
    return slug;
  }

  const subscribe = (app: TestApp, slug: string, address: string) =>
    app.app.inject({
      method: 'POST',
      url: `/status/${slug}/subscribe`,
      payload: { kind: 'webhook', address },
      remoteAddress: `10.77.${++visitor % 250}.${visitor % 250}`,
    });

  const privateMessage = 'Use a public address; private and local ones are refused';
  const metadataMessage =
    'Use a public address; link-local and cloud metadata addresses are always refused';
  const multicastMessage =
    'Use a public address; multicast and broadcast addresses are always refused';

  it.each([
    ['http://127.0.0.1/hook', privateMessage],
    ['http://127.0.0.1./hook', privateMessage],
    ['http://localhost/hook', privateMessage],
    ['http://localhost./hook', privateMessage],
    ['http://LOCALHOST./hook', privateMessage],
    ['http://hooks.localhost/x', privateMessage],
    ['http://[::ffff:127.0.0.1]/', privateMessage],
    ['http://[::ffff:7f00:1]/', privateMessage],
    ['http://[::1]/', privateMessage],
    ['http://2130706433/', privateMessage],
    ['http://0x7f.1/', privateMessage],
    ['http://0/', privateMessage],
    ['http://10.0.0.1/', privateMessage],
    ['http://[64:ff9b::10.0.0.1]/', privateMessage],
    ['http://[2002:c0a8:101::]/', privateMessage],
    ['http://169.254.169.254/latest', metadataMessage],
    ['http://2852039166/', metadataMessage],
    ['http://0xa9fea9fe/', metadataMessage],
    ['http://0251.0376.0251.0376/', metadataMessage],
    ['http://[::ffff:a9fe:a9fe]/', metadataMessage],
    ['http://[64:ff9b::169.254.169.254]/', metadataMessage],
    ['http://[2001::5601:5601]/', metadataMessage],
    ['http://[fd00:ec2::254]/', metadataMessage],
    ['http://100.100.100.200/', metadataMessage],
    ['http://203.0.113.7/', privateMessage],
    ['http://198.18.0.1/', privateMessage],
    ['http://[2001:db8::1]/', privateMessage],
    ['http://224.0.0.1/', multicastMessage],
    ['http://255.255.255.255/', multicastMessage],
    ['http://[ff02::1]/', multicastMessage],
    ['http://[::ffff:239.255.255.250]/', multicastMessage],
  ])('refuses %s with 400 validation_failed naming the address field', async (address, message) => {
    const slug = await webhookPage();
    const res = await subscribe(strict, slug, address);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'validation_failed',
      detail: 'Webhooks must be reachable on the public internet',
      errors: [{ path: 'address', code: 'private_address', message }],
    });
  });

  it('takes private addresses when allowed, but never metadata, multicast or broadcast ones', async () => {
    const slug = await webhookPage();
    for (const address of [
      'http://127.0.0.1./hook',
      'http://[::ffff:10.0.0.1]/',
      'http://0/',
      'http://203.0.113.7/',
    ]) {
      expect((await subscribe(lenient, slug, address)).statusCode, address).toBe(202);
    }
    for (const [address, message] of [
      ['http://[::ffff:169.254.169.254]/', metadataMessage],
      ['http://0xa9fea9fe/', metadataMessage],
      ['http://224.0.0.1/', multicastMessage],
      ['http://[ff02::1]/', multicastMessage],
    ]) {
      const res = await subscribe(lenient, slug, address!);
      expect(res.statusCode, address).toBe(400);
      expect(res.json().errors[0].message).toBe(message);
    }
  });

  it('takes a public address, and a name that does not resolve yet', async () => {
    const slug = await webhookPage();
    for (const address of ['https://[2606:4700:4700::1111]/hook', 'https://hooks.invalid/x']) {
      expect((await subscribe(strict, slug, address)).statusCode, address).toBe(202);
    }
  });

  // Each spelling reaches the receiver on 127.0.0.1 when private addresses are allowed, so a
  // send that is refused shows the guard at work, not an unreachable address.
  // The send's refusal names the setting for visitors' webhooks, even with the channels' setting
  // on (it governs only channels, and the SMTP server subscriber mail goes through).
  it.each([
    ['http://127.0.0.1.:PORT/hook', '127.0.0.1 is'],
    ['http://localhost:PORT/hook', 'localhost is'],
    ['http://2130706433:PORT/hook', '127.0.0.1 is'],
    ['http://0x7f.1:PORT/hook', '127.0.0.1 is'],
    ['http://0:PORT/hook', '0.0.0.0 is'],
    ['http://[::ffff:127.0.0.1]:PORT/hook', '::ffff:7f00:1 carries 127.0.0.1,'],
  ])('%s: refused at the form and at send time alike', async (spelling, refused) => {
    const r = await startHttpReceiver();
    receivers.push(r);
    const address = spelling.replace('PORT', String(r.port));
    const slug = await webhookPage();
    expect((await subscribe(strict, slug, address)).statusCode).toBe(400);
    // Subscribed while the setting allowed it; then the setting changed.
    expect((await subscribe(lenient, slug, address)).statusCode).toBe(202);

    const repos = repositories(strict.database);
    const page = (await repos.statusSubscribers.page(slug))!;
    const row = await strict.database.db
      .selectFrom('status_subscribers')
      .select(['id', 'base_url'])
      .where('page_id', '=', page.id)
      .executeTakeFirstOrThrow();
    const payload = JSON.stringify(confirmNotice(page, row.base_url, Date.now()));
    const ctx = { publicUrl: null, timeoutMs: 5000, egress: channelEgress(true), deliveryId: 1 };
    const secrets = new SecretBox(randomBytes(32));
    const send = (allowPrivateWebhooks: boolean) =>
      subscriberSender({ repos, secrets, allowPrivateWebhooks })(Number(row.id), payload, ctx);

    const err = await send(false).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ChannelError);
    expect(err).toMatchObject({
      permanent: true,
      message: `refused: ${refused} a private address (PAGEWATCH_ALLOW_PRIVATE_SUBSCRIBER_WEBHOOKS)`,
    });
    expect(r.connections()).toBe(0);

    await send(true);
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]!.path).toBe('/hook');
  });
});
