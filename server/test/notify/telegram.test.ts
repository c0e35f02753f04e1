import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import { refusedPort } from '../fixtures/target-server.js';
import {
  downEvent,
  expectHttpErrorMapping,
  PUBLIC_URL,
  send,
  sendError,
  targetOf,
} from './support.js';

let r: HttpReceiver;
beforeEach(async () => {
  r = await startHttpReceiver();
});
afterEach(() => r.close());

const TOKEN = '123456:ABC-secret-token';

describe('telegram', () => {
  it('calls sendMessage with escaped HTML, the thread and no link preview', async () => {
    const target = targetOf(
      'telegram',
      { baseUrl: r.url, chatId: '-1001234', messageThreadId: 5 },
      { botToken: TOKEN },
    );
    const event = downEvent({ monitor: { id: 42, name: 'A <b>&', type: 'http', target: 't' } });
    await send(target, event);
    const req = r.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', path: `/bot${TOKEN}/sendMessage` });
    const body = req.json();
    expect(body).toMatchObject({
      chat_id: '-1001234',
      parse_mode: 'HTML',
      message_thread_id: 5,
      link_preview_options: { is_disabled: true },
    });
    expect(body.text).toMatch(/^<b>A &lt;b&gt;&amp; is down<\/b>\n/);
    expect(body.text).toContain(`<a href="${PUBLIC_URL}/monitors/42">Open monitor</a>`);
  });

  it('treats a template as plain text: its own <b> is escaped like the values', async () => {
    const target = targetOf(
      'telegram',
      { baseUrl: r.url, chatId: '1' },
      { botToken: TOKEN },
      { title: '', body: '<b>{{monitor.name}}</b> @oncall' },
    );
    await send(target, downEvent({ monitor: { id: 1, name: '<i>', type: 'http', target: 't' } }));
    expect(r.requests[0]!.json().text).toBe(
      `<b>&lt;i&gt; is down</b>\n\n&lt;b&gt;&lt;i&gt;&lt;/b&gt; @\u2060oncall\n\n` +
        `<a href="${PUBLIC_URL}/monitors/1">Open monitor</a>`,
    );
  });

  it('sends an overlong message as plain text rather than cut HTML', async () => {
    const target = targetOf('telegram', { baseUrl: r.url, chatId: '1' }, { botToken: TOKEN });
    const incident = downEvent({
      kind: 'incident.updated',
      incident: {
        id: 1,
        title: 'x',
        state: 'monitoring',
        severity: 'minor',
        message: '<'.repeat(5000),
      },
    });
    await send(target, incident);
    const body = r.requests[0]!.json();
    expect(body).not.toHaveProperty('parse_mode');
    expect(body.text).toHaveLength(4096);
  });

  it('leaves message_thread_id out when unset', async () => {
    await send(
      targetOf('telegram', { baseUrl: r.url, chatId: '@pagewatch_ops' }, { botToken: TOKEN }),
      downEvent(),
    );
    expect(r.requests[0]!.json()).not.toHaveProperty('message_thread_id');
  });

  it("surfaces Telegram's description and never the token", async () => {
    r.answer(400, {
      body: '{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}',
    });
    const target = targetOf('telegram', { baseUrl: r.url, chatId: '1' }, { botToken: TOKEN });
    const err = await sendError(target, downEvent());
    expect(err).toMatchObject({
      permanent: true,
      message: 'HTTP 400: Bad Request: chat not found',
    });
    r.answer(429, {
      body: '{"ok":false,"description":"Too Many Requests","parameters":{"retry_after":12}}',
    });
    expect(await sendError(target, downEvent())).toMatchObject({
      permanent: false,
      retryAfterMs: 12_000,
    });
    const port = await refusedPort();
    const unreachable = {
      ...target,
      config: { ...target.config, baseUrl: `http://127.0.0.1:${port}` },
    };
    const down = await sendError(unreachable, downEvent());
    expect(down).toMatchObject({
      permanent: false,
      message: `connection refused (127.0.0.1:${port})`,
    });
  });

  it('maps errors', async () => {
    await expectHttpErrorMapping(
      r,
      targetOf('telegram', { baseUrl: r.url, chatId: '1' }, { botToken: TOKEN }),
    );
  });
});
