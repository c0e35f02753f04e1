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

describe('slack', () => {
  it('posts Block Kit with a text fallback, fields, context and a link button', async () => {
    const target = targetOf(
      'slack',
      { channel: '#ops', username: 'pagewatch' },
      { webhookUrl: `${r.url}/services/T0/B0/xyz` },
    );
    await send(target, downEvent());
    const req = r.requests[0]!;
    expect(req).toMatchObject({ method: 'POST', path: '/services/T0/B0/xyz' });
    const body = req.json();
    expect(body).toMatchObject({
      text: 'Shop API is down',
      channel: '#ops',
      username: 'pagewatch',
    });
    expect(body.blocks.map((b: { type: string }) => b.type)).toEqual([
      'header',
      'section',
      'context',
      'actions',
    ]);
    expect(body.blocks[0].text).toEqual({
      type: 'plain_text',
      text: 'Shop API is down',
      emoji: true,
    });
    expect(body.blocks[1].text.type).toBe('mrkdwn');
    expect(body.blocks[1].fields).toContainEqual({
      type: 'mrkdwn',
      text: '*Target*\nhttps://shop.example/health',
      verbatim: true,
    });
    expect(body.blocks[3].elements[0]).toMatchObject({ type: 'button', url: link });
  });

  it('escapes &, < and > from monitor names in mrkdwn', async () => {
    const event = downEvent({
      monitor: { id: 1, name: '<!channel> & co', type: 'http', target: 't' },
    });
    await send(targetOf('slack', {}, { webhookUrl: r.url }), event);
    expect(r.requests[0]!.json().blocks[1].text.text).toMatch(/^&lt;!channel&gt; &amp; co is down/);
  });

  it('maps errors', async () => {
    await expectHttpErrorMapping(r, targetOf('slack', {}, { webhookUrl: r.url }));
  });
});

describe('mattermost and rocketchat', () => {
  it('mattermost: Slack-compatible text and a coloured attachment', async () => {
    const target = targetOf(
      'mattermost',
      { channel: 'town-square', username: 'pw' },
      { webhookUrl: `${r.url}/hooks/abc` },
    );
    await send(target, upEvent());
    const body = r.requests[0]!.json();
    expect(body).toMatchObject({
      text: '**Shop API is up**',
      channel: 'town-square',
      username: 'pw',
    });
    expect(body.attachments[0]).toMatchObject({
      color: '#1a7f37',
      title: 'Shop API is up',
      title_link: link,
    });
    expect(body.attachments[0].fields).toContainEqual({
      short: true,
      title: 'Outage',
      value: '2 h 5 min',
    });
  });

  it('rocketchat: the user name goes out as alias', async () => {
    await send(
      targetOf('rocketchat', { channel: '#ops', username: 'pw' }, { webhookUrl: r.url }),
      downEvent(),
    );
    const body = r.requests[0]!.json();
    expect(body).toMatchObject({ channel: '#ops', alias: 'pw' });
    expect(body.attachments[0]).toMatchObject({ color: '#d1242f', title_link: link });
  });

  it('map errors', async () => {
    await expectHttpErrorMapping(r, targetOf('mattermost', {}, { webhookUrl: r.url }));
    await expectHttpErrorMapping(r, targetOf('rocketchat', {}, { webhookUrl: r.url }));
  });
});

describe('discord', () => {
  it('posts one embed with colour as an integer, fields, timestamp and footer', async () => {
    await send(
      targetOf('discord', { username: 'Pagewatch' }, { webhookUrl: `${r.url}/api/webhooks/1/t` }),
      downEvent(),
    );
    const req = r.requests[0]!;
    expect(req.path).toBe('/api/webhooks/1/t');
    const body = req.json();
    expect(body.username).toBe('Pagewatch');
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds).toHaveLength(1);
    expect(body.embeds[0]).toMatchObject({
      title: 'Shop API is down',
      url: link,
      color: 0xd1242f,
      timestamp: '2026-11-22T06:05:31.000Z',
      footer: { text: 'Pagewatch' },
    });
    expect(body.embeds[0].fields[0]).toEqual({ name: 'Monitor', value: 'Shop API', inline: true });
  });

  it('honours retry_after from a 429 body', async () => {
    r.answer(429, {
      body: '{"message":"You are being rate limited.","retry_after":1.5,"global":false}',
    });
    const err = await sendError(targetOf('discord', {}, { webhookUrl: r.url }), downEvent());
    expect(err).toMatchObject({ permanent: false, retryAfterMs: 1500 });
  });

  it('maps errors', async () => {
    await expectHttpErrorMapping(r, targetOf('discord', {}, { webhookUrl: r.url }));
  });
});

describe('teams', () => {
  it('posts an Adaptive Card 1.4 message with facts and an Open URL action', async () => {
    await send(targetOf('teams', {}, { webhookUrl: `${r.url}/workflows/abc` }), downEvent());
    const body = r.requests[0]!.json();
    expect(body.type).toBe('message');
    expect(body.attachments).toHaveLength(1);
    const { contentType, content } = body.attachments[0];
    expect(contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(content).toMatchObject({
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
      type: 'AdaptiveCard',
      version: '1.4',
      actions: [{ type: 'Action.OpenUrl', title: 'Open monitor', url: link }],
    });
    expect(content.body[0]).toMatchObject({
      type: 'TextBlock',
      text: 'Shop API is down',
      color: 'Attention',
    });
    expect(content.body[2].type).toBe('FactSet');
    expect(content.body[2].facts).toContainEqual({ title: 'Status', value: 'down (was up)' });
  });

  it('maps errors', async () => {
    await expectHttpErrorMapping(r, targetOf('teams', {}, { webhookUrl: r.url }));
  });
});
