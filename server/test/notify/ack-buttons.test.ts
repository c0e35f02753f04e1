import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import { downEvent, PUBLIC_URL, send, targetOf } from './support.js';

/**
 * The acknowledge link of an escalated outage (ADR 39) as each channel shows it: a link button
 * where the service draws one from a plain webhook, else a link in the text (docs/notifications.md).
 */
let r: HttpReceiver;
beforeEach(async () => {
  r = await startHttpReceiver();
});
afterEach(() => r.close());

const ACK = `${PUBLIC_URL}/ack/tok3n.sig`;
const escalated = () => downEvent({ escalation: { id: 7, acknowledgedBy: null, ackUrl: ACK } });
const monitorLink = `${PUBLIC_URL}/monitors/42`;

describe('an escalated outage’s acknowledge link', () => {
  it('slack: a second link button beside the monitor’s', async () => {
    await send(targetOf('slack', {}, { webhookUrl: r.url }), escalated());
    const actions = r.requests[0]!.json().blocks.at(-1);
    expect(actions).toEqual({
      type: 'actions',
      elements: [
        { type: 'button', text: { type: 'plain_text', text: 'Open monitor' }, url: monitorLink },
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Acknowledge' },
          url: ACK,
          style: 'primary',
        },
      ],
    });
  });

  it('telegram: an inline keyboard of URL buttons, and the link in the text', async () => {
    const target = targetOf('telegram', { baseUrl: r.url, chatId: '1' }, { botToken: '1:x' });
    await send(target, escalated());
    const body = r.requests[0]!.json();
    expect(body.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: 'Open monitor', url: monitorLink },
          { text: 'Acknowledge', url: ACK },
        ],
      ],
    });
    expect(body.text).toContain(`<a href="${ACK}">Acknowledge</a>`);
  });

  it('telegram: no buttons for a private address Telegram would refuse, the link stays in the text', async () => {
    const target = targetOf('telegram', { baseUrl: r.url, chatId: '1' }, { botToken: '1:x' });
    const local = 'http://localhost:3000/ack/tok3n.sig';
    await send(target, downEvent({ escalation: { id: 7, acknowledgedBy: null, ackUrl: local } }));
    const body = r.requests[0]!.json();
    expect(body).not.toHaveProperty('reply_markup');
    expect(body.text).toContain(`<a href="${local}">Acknowledge</a>`);
  });

  it('teams: a second Action.OpenUrl', async () => {
    await send(targetOf('teams', {}, { webhookUrl: r.url }), escalated());
    const card = r.requests[0]!.json().attachments[0].content;
    expect(card.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open monitor', url: monitorLink },
      { type: 'Action.OpenUrl', title: 'Acknowledge', url: ACK, style: 'positive' },
    ]);
  });

  it('ntfy: a view action that clears the notification', async () => {
    await send(targetOf('ntfy', { serverUrl: r.url, topic: 't' }, {}), escalated());
    const body = r.requests[0]!.json();
    expect(body.actions).toEqual([{ action: 'view', label: 'Acknowledge', url: ACK, clear: true }]);
    expect(body.click).toBe(monitorLink);
  });

  it('discord, mattermost and rocketchat: a link in the text (no buttons without an app)', async () => {
    await send(targetOf('discord', {}, { webhookUrl: r.url }), escalated());
    expect(r.requests[0]!.json().embeds[0].description).toMatch(
      new RegExp(`\\n\\n\\[Acknowledge\\]\\(${ACK.replace(/[.]/g, '\\.')}\\)$`),
    );
    await send(targetOf('mattermost', {}, { webhookUrl: r.url }), escalated());
    expect(r.requests[1]!.json().attachments[0].text).toContain(`[Acknowledge](${ACK})`);
    await send(targetOf('rocketchat', {}, { webhookUrl: r.url }), escalated());
    expect(r.requests[2]!.json().attachments[0].text).toContain(`[Acknowledge](${ACK})`);
  });

  it('pushover: the link closes the message, whole even when the text is clipped', async () => {
    const long = downEvent({
      escalation: { id: 7, acknowledgedBy: null, ackUrl: ACK },
      cause: { code: 'http_status', message: 'x'.repeat(2000), phase: 'content', since: null },
    });
    await send(targetOf('pushover', { apiUrl: r.url }, { appToken: 'app', userKey: 'user' }), long);
    const message = r.requests[0]!.form().message!;
    expect(message.length).toBeLessThanOrEqual(1024);
    expect(message.endsWith(`<a href="${ACK}">Acknowledge</a>`)).toBe(true);
  });

  it('pagerduty: a link beside PagerDuty’s own acknowledge', async () => {
    r.answer(202, { body: '{"status":"success"}' });
    await send(
      targetOf('pagerduty', { eventsUrl: `${r.url}/v2/enqueue` }, { routingKey: 'R0UT1NG' }),
      escalated(),
    );
    expect(r.requests[0]!.json().links).toEqual([
      { href: monitorLink, text: 'Open monitor' },
      { href: ACK, text: 'Acknowledge in Pagewatch' },
    ]);
  });

  it('a message without an escalation has no acknowledge button anywhere', async () => {
    await send(targetOf('slack', {}, { webhookUrl: r.url }), downEvent());
    expect(r.requests[0]!.json().blocks.at(-1).elements).toHaveLength(1);
    await send(targetOf('ntfy', { serverUrl: r.url, topic: 't' }, {}), downEvent());
    expect(r.requests[1]!.json()).not.toHaveProperty('actions');
  });
});
