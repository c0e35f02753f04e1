import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import {
  downEvent,
  expectHttpErrorMapping,
  PUBLIC_URL,
  send,
  sendError,
  targetOf,
  upEvent,
} from './support.js';

let r: HttpReceiver;
beforeEach(async () => {
  r = await startHttpReceiver();
});
afterEach(() => r.close());

const link = `${PUBLIC_URL}/monitors/42`;

describe('ntfy', () => {
  it('publishes JSON to the server root with a Bearer token', async () => {
    const target = targetOf(
      'ntfy',
      { serverUrl: r.url, topic: 'ops-alerts', priority: 5 },
      { token: 'tk_abc' },
    );
    await send(target, downEvent());
    const req = r.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', path: '/' });
    expect(req.headers.authorization).toBe('Bearer tk_abc');
    expect(req.json()).toEqual({
      topic: 'ops-alerts',
      title: 'Shop API is down',
      message: expect.stringContaining('Shop API is down: HTTP 503'),
      priority: 5,
      tags: ['rotating_light'],
      click: link,
    });
  });

  it('sends recoveries at the default priority and no token header without one', async () => {
    await send(targetOf('ntfy', { serverUrl: r.url, topic: 't' }, {}), upEvent());
    const req = r.requests[0]!;
    expect(req.headers.authorization).toBeUndefined();
    expect(req.json()).toMatchObject({ priority: 3, tags: ['white_check_mark'] });
  });

  it('maps errors', async () => {
    await expectHttpErrorMapping(r, targetOf('ntfy', { serverUrl: r.url, topic: 't' }, {}));
  });
});

describe('gotify', () => {
  it('POSTs /message with the app token, Markdown display and a click URL', async () => {
    await send(
      targetOf('gotify', { serverUrl: `${r.url}/gotify/`, priority: 7 }, { appToken: 'AbC' }),
      downEvent(),
    );
    const req = r.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', path: '/gotify/message' });
    expect(req.headers['x-gotify-key']).toBe('AbC');
    expect(req.json()).toEqual({
      title: 'Shop API is down',
      message: expect.stringContaining(`[Open monitor](${link})`),
      priority: 7,
      extras: {
        'client::display': { contentType: 'text/markdown' },
        'client::notification': { click: { url: link } },
      },
    });
  });

  it('maps errors', async () => {
    await expectHttpErrorMapping(r, targetOf('gotify', { serverUrl: r.url }, { appToken: 'x' }));
  });
});

describe('pushover', () => {
  const keys = {
    appToken: 'azGDORePK8gMaC0QOYAMyEEuzJnyUi',
    userKey: 'uQiRzpo4DXghDmr9QzzfQu27cmVRsG',
  };

  it('POSTs a form to /1/messages.json with HTML, link, device and sound', async () => {
    const target = targetOf(
      'pushover',
      { apiUrl: r.url, priority: 1, device: 'phone', sound: 'siren' },
      keys,
    );
    await send(target, downEvent());
    const req = r.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', path: '/1/messages.json' });
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.form()).toEqual({
      token: keys.appToken,
      user: keys.userKey,
      title: 'Shop API is down',
      message: expect.stringContaining('<b>Target:</b> https://shop.example/health'),
      html: '1',
      priority: '1',
      url: link,
      url_title: 'Open monitor',
      device: 'phone',
      sound: 'siren',
    });
  });

  it('adds retry and expire for emergency priority, and recoveries go out at normal priority', async () => {
    const target = targetOf('pushover', { apiUrl: r.url, priority: 2 }, keys);
    await send(target, downEvent());
    expect(r.requests[0]!.form()).toMatchObject({ priority: '2', retry: '60', expire: '3600' });
    await send(target, upEvent());
    expect(r.requests[1]!.form().priority).toBe('0');
    expect(r.requests[1]!.form()).not.toHaveProperty('retry');
  });

  it("surfaces Pushover's errors list", async () => {
    r.answer(400, {
      body: '{"user":"invalid","errors":["user identifier is invalid"],"status":0}',
    });
    const err = await sendError(targetOf('pushover', { apiUrl: r.url }, keys), downEvent());
    expect(err).toMatchObject({ permanent: true, message: 'HTTP 400: user identifier is invalid' });
  });

  it('maps errors', async () => {
    await expectHttpErrorMapping(r, targetOf('pushover', { apiUrl: r.url }, keys));
  });
});
