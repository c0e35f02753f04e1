import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpReceiver, type HttpReceiver } from '../fixtures/http-receiver.js';
import { downEvent, PUBLIC_URL, send, targetOf } from './support.js';

// What a monitor's name and a checked site's error can say; every channel must show it as text.
const NAME = '<!channel> @here @everyone <@&123> [click](https://evil.example) <b>x</b> & *bold*';
const ERROR = 'HTTP 500: ask <@U123> at [bank](https://evil.example)';
const hostile = downEvent({
  monitor: { id: 42, name: NAME, type: 'http', target: 'https://shop.example/health' },
  cause: { code: 'http_status', message: ERROR, phase: null, since: null },
});

/** U+2060 WORD JOINER, written out so the expectations show where it goes. */
const WJ = '\u2060';
const link = `${PUBLIC_URL}/monitors/42`;
const AT = '2026-11-22 06:05 UTC';

let r: HttpReceiver;
beforeEach(async () => {
  r = await startHttpReceiver();
});
afterEach(() => r.close());

async function received(target: ReturnType<typeof targetOf>) {
  await send(target, hostile);
  return r.requests[0]!;
}

describe('what people typed reaches each chat as text', () => {
  it('slack: &, < and > are entities everywhere, mrkdwn is verbatim', async () => {
    const name = `&lt;!channel&gt; @${WJ}here @${WJ}everyone &lt;@&amp;123&gt; [click](https://evil.example) &lt;b&gt;x&lt;/b&gt; &amp; *bold*`;
    const error = `HTTP 500: ask &lt;@${WJ}U123&gt; at [bank](https://evil.example) (http_status)`;
    const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });
    const body = (await received(targetOf('slack', {}, { webhookUrl: r.url }))).json();
    expect(body).toEqual({
      text: `${name} is down`,
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: `${name} is down`, emoji: true } },
        {
          type: 'section',
          text: mrkdwn(`${name} is down: ${error}.`),
          fields: [
            mrkdwn(`*Monitor*\n${name}`),
            mrkdwn('*Target*\nhttps://shop.example/health'),
            mrkdwn('*Status*\ndown (was up)'),
            mrkdwn(`*Cause*\n${error}`),
            mrkdwn(`*At*\n${AT}`),
          ],
        },
        { type: 'context', elements: [mrkdwn(':red_circle: Pagewatch · monitor.down')] },
        {
          type: 'actions',
          elements: [
            { type: 'button', text: { type: 'plain_text', text: 'Open monitor' }, url: link },
          ],
        },
      ],
    });
  });

  it('mattermost: Markdown escaped, mentions broken, no Slack-style <!channel> left', async () => {
    const name = String.raw`\<\!channel\> @${WJ}here @${WJ}everyone \<@&123\> \[click\]\(https://evil.example\) \<b\>x\</b\> & \*bold\*`;
    const error = String.raw`HTTP 500: ask \<@${WJ}U123\> at \[bank\]\(https://evil.example\) \(http\_status\)`;
    const body = (await received(targetOf('mattermost', {}, { webhookUrl: r.url }))).json();
    expect(body).toEqual({
      text: `**${name} is down**`,
      attachments: [
        {
          fallback: `${name} is down`,
          color: '#d1242f',
          title: `${name} is down`,
          title_link: link,
          text: `${name} is down: ${error}.`,
          fields: [
            { short: true, title: 'Monitor', value: name },
            { short: true, title: 'Target', value: 'https://shop.example/health' },
            { short: true, title: 'Status', value: String.raw`down \(was up\)` },
            { short: true, title: 'Cause', value: error },
            { short: true, title: 'At', value: AT },
          ],
        },
      ],
    });
  });

  it('rocketchat: word joiners break mentions, links and tags its parser would read', async () => {
    const name = `<${WJ}!channel> @${WJ}here @${WJ}everyone <${WJ}@&123> [click]${WJ}(https://evil.example) <${WJ}b>x<${WJ}/b> & *bold*`;
    const error = `HTTP 500: ask <${WJ}@${WJ}U123> at [bank]${WJ}(https://evil.example) (http_status)`;
    const body = (await received(targetOf('rocketchat', {}, { webhookUrl: r.url }))).json();
    expect(body).toEqual({
      text: `**${name} is down**`,
      attachments: [
        {
          fallback: `${name} is down`,
          color: '#d1242f',
          title: `${name} is down`,
          title_link: link,
          text: `${name} is down: ${error}.`,
          fields: [
            { short: true, title: 'Monitor', value: name },
            { short: true, title: 'Target', value: 'https://shop.example/health' },
            { short: true, title: 'Status', value: 'down (was up)' },
            { short: true, title: 'Cause', value: error },
            { short: true, title: 'At', value: AT },
          ],
        },
      ],
    });
  });

  it('discord: Markdown escaped, mentions broken, and no mention allowed at all', async () => {
    const name = String.raw`\<\!channel\> @${WJ}here @${WJ}everyone \<@&123\> \[click\]\(https://evil.example\) \<b\>x\</b\> & \*bold\*`;
    const error = String.raw`HTTP 500: ask \<@${WJ}U123\> at \[bank\]\(https://evil.example\) \(http\_status\)`;
    const field = (name: string, value: string) => ({ name, value, inline: true });
    const body = (await received(targetOf('discord', {}, { webhookUrl: r.url }))).json();
    expect(body).toEqual({
      embeds: [
        {
          title: `${name} is down`,
          description: `${name} is down: ${error}.`,
          url: link,
          color: 0xd1242f,
          fields: [
            field('Monitor', name),
            field('Target', 'https://shop.example/health'),
            field('Status', String.raw`down \(was up\)`),
            field('Cause', error),
            field('At', AT),
          ],
          timestamp: '2026-11-22T06:05:31.000Z',
          footer: { text: 'Pagewatch' },
        },
      ],
      allowed_mentions: { parse: [] },
    });
  });

  it('teams: bold, italic and link marks escaped, no <at> tag can form', async () => {
    const name = String.raw`<${WJ}!channel> @here @everyone <${WJ}@&123> \[click\](https://evil.example) <${WJ}b>x<${WJ}/b> & \*bold\*`;
    const error = String.raw`HTTP 500: ask <${WJ}@U123> at \[bank\](https://evil.example) (http\_status)`;
    const body = (await received(targetOf('teams', {}, { webhookUrl: r.url }))).json();
    expect(body.attachments[0].content.body).toEqual([
      {
        type: 'TextBlock',
        text: `${name} is down`,
        weight: 'Bolder',
        size: 'Medium',
        color: 'Attention',
        wrap: true,
      },
      { type: 'TextBlock', text: `${name} is down: ${error}.`, wrap: true },
      {
        type: 'FactSet',
        facts: [
          { title: 'Monitor', value: name },
          { title: 'Target', value: 'https://shop.example/health' },
          { title: 'Status', value: 'down (was up)' },
          { title: 'Cause', value: error },
          { title: 'At', value: AT },
        ],
      },
    ]);
    expect(body.attachments[0].content.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open monitor', url: link },
    ]);
  });
});

describe('what people typed reaches each push service and Telegram as text', () => {
  const html = `&lt;!channel&gt; @${WJ}here @${WJ}everyone &lt;@&amp;123&gt; [click](https://evil.example) &lt;b&gt;x&lt;/b&gt; &amp; *bold*`;

  it('telegram: HTML entities, no @username mention, our link an <a href>', async () => {
    const error = `HTTP 500: ask &lt;@${WJ}U123&gt; at [bank](https://evil.example) (http_status)`;
    const target = targetOf('telegram', { baseUrl: r.url, chatId: '1' }, { botToken: '1:x' });
    expect((await received(target)).json()).toEqual({
      chat_id: '1',
      parse_mode: 'HTML',
      link_preview_options: { is_disabled: true },
      text: [
        `<b>${html} is down</b>`,
        '',
        `${html} is down: ${error}.`,
        '',
        `<b>Monitor:</b> ${html}`,
        '<b>Target:</b> https://shop.example/health',
        '<b>Status:</b> down (was up)',
        `<b>Cause:</b> ${error}`,
        `<b>At:</b> ${AT}`,
        '',
        `<a href="${link}">Open monitor</a>`,
      ].join('\n'),
    });
  });

  it('pushover: an HTML body with entities, a plain title', async () => {
    const name =
      '&lt;!channel&gt; @here @everyone &lt;@&amp;123&gt; [click](https://evil.example) &lt;b&gt;x&lt;/b&gt; &amp; *bold*';
    const error = 'HTTP 500: ask &lt;@U123&gt; at [bank](https://evil.example) (http_status)';
    const keys = { appToken: 'app', userKey: 'user' };
    const req = await received(targetOf('pushover', { apiUrl: r.url }, keys));
    expect(req.form()).toEqual({
      token: 'app',
      user: 'user',
      title: `${NAME} is down`,
      message: [
        `${name} is down: ${error}.`,
        `<b>Monitor:</b> ${name}`,
        '<b>Target:</b> https://shop.example/health',
        '<b>Status:</b> down (was up)',
        `<b>Cause:</b> ${error}`,
        `<b>At:</b> ${AT}`,
      ].join('\n'),
      html: '1',
      priority: '1',
      url: link,
      url_title: 'Open monitor',
    });
  });

  it('gotify: a Markdown body escaped with backslashes, a plain title', async () => {
    const name = String.raw`\<\!channel\> @here @everyone \<@&123\> \[click\]\(https://evil.example\) \<b\>x\</b\> & \*bold\*`;
    const error = String.raw`HTTP 500: ask \<@U123\> at \[bank\]\(https://evil.example\) \(http\_status\)`;
    const target = targetOf('gotify', { serverUrl: r.url }, { appToken: 'x' });
    const body = (await received(target)).json();
    expect(body.title).toBe(`${NAME} is down`);
    expect(body.message).toBe(
      [
        `${name} is down: ${error}.`,
        [
          `**Monitor:** ${name}`,
          '**Target:** https://shop.example/health',
          String.raw`**Status:** down \(was up\)`,
          `**Cause:** ${error}`,
          `**At:** ${AT}`,
        ].join('  \n'),
        `[Open monitor](${link})`,
      ].join('\n\n'),
    );
  });

  it('ntfy: plain text, sent without the markdown flag', async () => {
    const target = targetOf('ntfy', { serverUrl: r.url, topic: 't' }, {});
    const body = (await received(target)).json();
    expect(body).not.toHaveProperty('markdown');
    expect(body.title).toBe(`${NAME} is down`);
    expect(body.message).toBe(
      [
        `${NAME} is down: ${ERROR} (http_status).`,
        [
          `Monitor: ${NAME}`,
          'Target: https://shop.example/health',
          'Status: down (was up)',
          `Cause: ${ERROR} (http_status)`,
          `At: ${AT}`,
        ].join('\n'),
        link,
      ].join('\n\n'),
    );
  });
});
