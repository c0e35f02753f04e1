import { describe, expect, it } from 'vitest';
import { badgeSnippets, type BadgeChoice } from './badge-snippets';

const monitor = { id: 12, name: 'api-internal' };
const status: BadgeChoice = { shows: 'status', window: '24h', style: 'flat', label: '' };

describe('badge snippets', () => {
  it('names the badge as the status page does and leaves default options out', () => {
    const s = badgeSnippets(
      monitor,
      { publicUrl: null, label: 'Public API' },
      status,
      'http://h:1',
    );
    expect(s.path).toBe('/badge/12/status.svg');
    expect(s.markdown).toBe('![Public API status](http://h:1/badge/12/status.svg)');
    expect(s.html).toBe('<img src="http://h:1/badge/12/status.svg" alt="Public API status">');
  });

  it('builds on the public URL when there is one, with the window, style and label', () => {
    const s = badgeSnippets(
      monitor,
      { publicUrl: 'https://status.example.com', label: 'Public API' },
      { shows: 'uptime', window: '30d', style: 'flat-square', label: ' Our [API] & "co" ' },
      'http://h:1',
    );
    expect(s.path).toBe(
      '/badge/12/uptime-30d.svg?style=flat-square&label=Our%20%5BAPI%5D%20%26%20%22co%22',
    );
    expect(s.url).toBe(`https://status.example.com${s.path}`);
    expect(s.alt).toBe('Our [API] & "co" uptime (30 days)');
    expect(s.markdown).toBe(`![Our \\[API\\] & "co" uptime (30 days)](${s.url})`);
    expect(s.html).toBe(
      `<img src="${s.url.replace('&label', '&amp;label')}" alt="Our [API] &amp; &quot;co&quot; uptime (30 days)">`,
    );
  });

  it("falls back to the monitor's own name when no page names it", () => {
    const s = badgeSnippets(monitor, { publicUrl: null, label: null }, status, 'http://h:1');
    expect(s.alt).toBe('api-internal status');
  });
});
