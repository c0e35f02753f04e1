import { describe, expect, it } from 'vitest';
import { maintenanceNotice } from '../../src/domain/subscriber-notices.js';
import { subscriberMessage } from '../../src/notify/subscriber-message.js';

const page = { id: 7, slug: 'acme', title: 'Acme <b>status</b>', customDomain: null };
const base = 'https://status.example.test';
const hostile =
  '<img src=x onerror=alert(1)> https://evil.example/login [bank](https://evil.example)';

const maintenance = (description: string) =>
  maintenanceNotice(
    page,
    base,
    {
      id: 3,
      title: 'DB upgrade at https://evil.example',
      description,
      change: 'scheduled',
      startsAt: '2026-12-01T02:00:00.000Z',
      endsAt: '2026-12-01T03:00:00.000Z',
    },
    Date.UTC(2026, 10, 30),
  );

/** Every `<a>` in the HTML as [href, visible text]. */
const anchors = (html: string) =>
  [...html.matchAll(/<a\b[^>]*?href="([^"]*)"[^>]*>(.*?)<\/a>/g)].map((m) => [m[1], m[2]]);

describe('a subscriber message shows typed text as text', () => {
  it('escapes typed maintenance text and links only what Pagewatch built, by its own URL', () => {
    const { html, text, subject } = subscriberMessage(maintenance(hostile), 'tok3n');
    expect(html).toContain(
      '<p>Scheduled maintenance: DB upgrade at https://evil.example</p>' +
        '<p>From Tue, 01 Dec 2026 02:00:00 UTC to Tue, 01 Dec 2026 03:00:00 UTC</p>' +
        '<p>&lt;img src=x onerror=alert(1)&gt; https://evil.example/login [bank](https://evil.example)</p>' +
        '<p>Status page: <a href="https://status.example.test/status/acme">https://status.example.test/status/acme</a></p>',
    );
    expect(anchors(html)).toEqual([
      ['https://status.example.test/status/acme', 'https://status.example.test/status/acme'],
      [
        'https://status.example.test/status/acme/unsubscribe/tok3n',
        'https://status.example.test/status/acme/unsubscribe/tok3n',
      ],
    ]);
    expect(text).toContain(`\n\n${hostile}\n\n`);
    expect(subject).toBe(
      '[Acme <b>status</b>] Scheduled maintenance: DB upgrade at https://evil.example',
    );
  });

  it('escapes the page title in a confirmation, whose only links are confirm and unsubscribe', () => {
    const notice = { ...maintenance(''), kind: 'confirm' as const, maintenance: null };
    const { html } = subscriberMessage(notice, 'tok3n');
    expect(html).toContain(
      '<p>You asked to be told about incidents and maintenance on Acme &lt;b&gt;status&lt;/b&gt;.</p>',
    );
    expect(anchors(html).map(([href]) => href)).toEqual([
      'https://status.example.test/status/acme/confirm/tok3n',
      'https://status.example.test/status/acme/unsubscribe/tok3n',
    ]);
  });

  it('escapes a link Pagewatch built where it could leave its attribute', () => {
    const notice = { ...maintenance(''), baseUrl: 'https://status.example.test/"><script>' };
    const { html } = subscriberMessage(notice, 'tok3n');
    expect(html).not.toContain('"><script>');
    expect(html).toContain(
      'href="https://status.example.test/&quot;&gt;&lt;script&gt;/status/acme"',
    );
  });
});
