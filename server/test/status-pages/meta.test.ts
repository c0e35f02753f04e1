import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/status-pages/markdown.js';
import { renderStatusHtml } from '../../src/status-pages/render/index.js';
import type { PublicIncident } from '../../src/status-pages/view-model.js';
import { view } from './view-fixtures.js';

/** The one description meta tag's content attribute, as written (still escaped). */
function metaContent(html: string): string {
  const tags = html.match(/<meta name="description" content="([^"]*)"\/>/g) ?? [];
  expect(tags).toHaveLength(1);
  return /content="([^"]*)"/.exec(tags[0]!)![1]!;
}

const pageHtml = (description: string, title = 'Acme') =>
  renderStatusHtml(view({ title, descriptionHtml: renderMarkdown(description) }), '/status/acme', {
    kind: 'page',
  }).html;

const incident: PublicIncident = {
  id: 7,
  title: 'Checkout errors',
  state: 'identified',
  severity: 'major',
  startedAt: '2026-11-22T05:00:00.000Z',
  resolvedAt: null,
  components: ['Checkout'],
  updates: [
    {
      at: '2026-11-22T05:30:00.000Z',
      state: 'identified',
      message: 'A bad deploy;\nrolling back.',
    },
    { at: '2026-11-22T05:00:00.000Z', state: 'investigating', message: 'Looking into it.' },
  ],
};

describe('status page meta description', () => {
  it("is the page's description as plain text, without its Markdown", () => {
    const html = pageHtml(
      'Live status of **Acme Cloud**.\n\nQuestions? [Write](mailto:a@example.com) to us.',
    );
    expect(metaContent(html)).toBe('Live status of Acme Cloud. Questions? Write to us.');
  });

  it('keeps markup typed into the description as text, escaped in the attribute', () => {
    const html = pageHtml('Fast "><script>alert(1)</script> & <b>safe</b>');
    expect(metaContent(html)).toBe(
      'Fast &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;safe&lt;/b&gt;',
    );
    // The page's only script is its own deferred file.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<script>alert(1)');
  });

  it('falls back to a summary naming the page when it has no description', () => {
    expect(metaContent(pageHtml('', 'Acme & Co'))).toBe(
      'Current status and incident history of Acme &amp; Co.',
    );
  });

  it('cuts a long description at a word, within 160 characters, with an ellipsis', () => {
    const long = 'Every service of the company is listed here with ninety days of history. '.repeat(
      5,
    );
    const content = metaContent(pageHtml(long));
    expect(content.length).toBeLessThanOrEqual(160);
    expect(content).toMatch(/^Every service of the company .* [A-Za-z]+…$/);
    expect(long.startsWith(content.slice(0, -1))).toBe(true);
  });

  it("on an incident's page, is the incident's state and newest public update", () => {
    const html = renderStatusHtml(view(), '/status/acme', { kind: 'incident', incident }).html;
    expect(metaContent(html)).toBe('Identified: A bad deploy; rolling back.');
    const quiet = { ...incident, state: 'investigating' as const, updates: [] };
    const bare = renderStatusHtml(view(), '/status/acme', { kind: 'incident', incident: quiet });
    expect(metaContent(bare.html)).toBe('Investigating: Checkout errors (Acme).');
  });
});
