import { describe, expect, it } from 'vitest';
import {
  breakMentions,
  escapeChatMarkdown,
  escapeHtml,
  escapeMarkdown,
  escapeRocketChat,
  escapeSlack,
  escapeTeams,
  escapeTelegram,
  htmlLink,
  markdownLink,
  safeUrl,
} from '../../src/notify/message/escape.js';

/** U+2060, written out so the expectations show where it goes. */
const WJ = '\u2060';
const HOSTILE =
  '<!channel> @here @everyone <@&123> [click](https://evil.example) <b>x</b> & *bold*';

describe('breakMentions', () => {
  it('puts a word joiner after an @ that starts a word', () => {
    expect(breakMentions('@here @channel @all @everyone @Alice (@bob) -@carol')).toBe(
      `@${WJ}here @${WJ}channel @${WJ}all @${WJ}everyone @${WJ}Alice (@${WJ}bob) -@${WJ}carol`,
    );
  });

  it('breaks broadcast words even inside a word, and leaves mail addresses alone', () => {
    expect(breakMentions('x@everyone ops@example.com admin@allianz.example @ alone')).toBe(
      `x@${WJ}everyone ops@example.com admin@allianz.example @ alone`,
    );
  });
});

describe('one escaping per format', () => {
  it('HTML: &, <, >, quotes become entities', () => {
    expect(escapeHtml(HOSTILE)).toBe(
      '&lt;!channel&gt; @here @everyone &lt;@&amp;123&gt; [click](https://evil.example) ' +
        '&lt;b&gt;x&lt;/b&gt; &amp; *bold*',
    );
    expect(escapeHtml(`"it's"`)).toBe('&quot;it&#39;s&quot;');
  });

  it('Telegram HTML: entities, and no @username mention', () => {
    expect(escapeTelegram('ask @oncall_bob <b>now</b>')).toBe(
      `ask @${WJ}oncall_bob &lt;b&gt;now&lt;/b&gt;`,
    );
  });

  it('Markdown: a backslash before every mark', () => {
    expect(escapeMarkdown(HOSTILE)).toBe(
      '\\<\\!channel\\> @here @everyone \\<@&123\\> \\[click\\]\\(https://evil.example\\) ' +
        '\\<b\\>x\\</b\\> & \\*bold\\*',
    );
  });

  it('Slack mrkdwn: entities for &, < and >, broadcast words broken', () => {
    expect(escapeSlack(HOSTILE)).toBe(
      `&lt;!channel&gt; @${WJ}here @${WJ}everyone &lt;@&amp;123&gt; ` +
        '[click](https://evil.example) &lt;b&gt;x&lt;/b&gt; &amp; *bold*',
    );
  });

  it('Mattermost and Discord: Markdown escaped and mentions broken', () => {
    expect(escapeChatMarkdown(HOSTILE)).toBe(
      `\\<\\!channel\\> @${WJ}here @${WJ}everyone \\<@&123\\> ` +
        '\\[click\\]\\(https://evil.example\\) \\<b\\>x\\</b\\> & \\*bold\\*',
    );
  });

  it('Rocket.Chat: word joiners after @ and <, and between ] and (', () => {
    expect(escapeRocketChat(HOSTILE)).toBe(
      `<${WJ}!channel> @${WJ}here @${WJ}everyone <${WJ}@&123> ` +
        `[click]${WJ}(https://evil.example) <${WJ}b>x<${WJ}/b> & *bold*`,
    );
    expect(
      escapeRocketChat('<https://evil.example|https://bank.example> ![x](https://t.example)'),
    ).toBe(`<${WJ}https://evil.example|https://bank.example> ![x]${WJ}(https://t.example)`);
  });

  it('Teams: bold, italic and link marks escaped, no <at> tag', () => {
    expect(escapeTeams(HOSTILE)).toBe(
      `<${WJ}!channel> @here @everyone <${WJ}@&123> \\[click\\](https://evil.example) ` +
        `<${WJ}b>x<${WJ}/b> & \\*bold\\*`,
    );
    expect(escapeTeams('<at>Alice</at> snake_case')).toBe(`<${WJ}at>Alice<${WJ}/at> snake\\_case`);
  });
});

describe('links Pagewatch builds', () => {
  it('keep their URL whole and cannot be cut short', () => {
    expect(safeUrl('https://pagewatch.example/monitors/42')).toBe(
      'https://pagewatch.example/monitors/42',
    );
    expect(safeUrl('https://pw.example/a b|c>d)e')).toBe('https://pw.example/a%20b%7Cc%3Ed%29e');
  });

  it('escape their label for Markdown and HTML', () => {
    expect(markdownLink('https://pw.example/x)y', 'Open [it]')).toBe(
      '[Open \\[it\\]](https://pw.example/x%29y)',
    );
    expect(htmlLink('https://pw.example/?a=1&b="2"', 'Open <it>')).toBe(
      '<a href="https://pw.example/?a=1&amp;b=&quot;2&quot;">Open &lt;it&gt;</a>',
    );
  });
});
