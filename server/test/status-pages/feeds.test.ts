import Parser from 'rss-parser';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { engines } from '../support/engines.js';
import { monitorInput } from '../support/factories.js';
import { json } from '../support/status-page-api.js';
import { insertStatusPage } from '../support/status-pages.js';
import { CHROMIUM_ARGS } from '../../src/engine/checks/browser/pool.js';

// What people type, as an attacker would type it: each must reach a feed reader as this text.
const typed = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(2)</script>',
  ']]><script>alert(3)</script>',
  '&lt;script&gt;alert(4)&lt;/script&gt;',
  '&amp;lt;b&amp;gt; twice',
  'Tom & Jerry\'s "DB" <b>outage</b>',
];
const pageTitle = 'Acme <img src=x onerror=alert(5)> &lt;i&gt;';

/** What a reader shows for HTML it renders: the elements it made and the text it displays. */
interface Rendered {
  tags: string[];
  text: string;
}

let browser: Browser;
let reader: Page;

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.PAGEWATCH_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  reader = await browser.newPage();
  await reader.route('**/*', (route) => route.abort());
  await reader.setContent('<!doctype html><title>reader</title><body></body>');
  // Page scripts are strings: the server project compiles without the DOM's types.
  await reader.evaluate('window.alerts = []; window.alert = (m) => window.alerts.push(m);');
});
afterAll(async () => browser?.close());

/** Renders HTML as a feed reader does, in a real DOM. */
async function render(fragment: string): Promise<Rendered> {
  return reader.evaluate<Rendered>(`(() => {
    const box = document.createElement('div');
    box.innerHTML = ${JSON.stringify(fragment)};
    document.body.append(box);
    const rendered = {
      tags: [...box.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()),
      text: box.innerText,
    };
    box.remove();
    return rendered;
  })()`);
}

describe.each(engines)('status page feeds on %s', (engine) => {
  let t: TestApp;
  let slug: string;

  beforeAll(async () => {
    t = await startTestApp({ engine });
    const m = await t.inject({
      method: 'POST',
      url: '/api/v1/monitors',
      ...json(monitorInput({ name: 'Site' })),
    });
    expect(m.statusCode, m.body).toBe(201);
    slug = `feeds-escape-${engine}`;
    await insertStatusPage(t.database, t.hub, {
      slug,
      title: pageTitle,
      sections: [{ components: [{ monitorId: m.json<{ id: number }>().id }] }],
    });
    for (const text of typed) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/v1/incidents',
        ...json({
          title: text,
          message: `${text}\nsecond line`,
          public: true,
          monitorIds: [m.json<{ id: number }>().id],
        }),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => t.stop());

  async function feed(kind: 'rss' | 'atom') {
    const res = await t.inject({
      url: `/status/${slug}/feed.${kind}`,
      headers: { authorization: '' },
    });
    expect(res.statusCode).toBe(200);
    return new Parser().parseString(res.body);
  }

  it.each(['rss', 'atom'] as const)(
    'a %s reader shows typed titles and updates as text, never as markup',
    async (kind) => {
      const parsed = await feed(kind);
      const title = await render(parsed.title ?? '');
      expect(title).toEqual({ tags: [], text: `${pageTitle} incidents` });

      expect(parsed.items.map((i) => i.title).length).toBe(typed.length);
      for (const item of parsed.items) {
        const shownTitle = await render(item.title ?? '');
        expect(shownTitle.tags).toEqual([]);
        expect(typed).toContain(shownTitle.text);

        const body = await render(item.content ?? '');
        // Only the feed's own markup: a paragraph per update, its state in bold, line breaks.
        expect(new Set(body.tags)).toEqual(new Set(['p', 'strong', 'br']));
        expect(body.text).toContain(`${shownTitle.text}\nsecond line`);
        expect(body.text).toMatch(/^Investigating \(\d{4}-\d\d-\d\dT/);
      }
      expect(await reader.evaluate('window.alerts')).toEqual([]);
    },
  );

  it('carries the titles as HTML in RSS and as type="html" in Atom, escaped as XML', async () => {
    const rss = await t.inject({ url: `/status/${slug}/feed.rss`, headers: { authorization: '' } });
    expect(rss.body).toContain(
      '<title>&amp;lt;script&amp;gt;alert(2)&amp;lt;/script&amp;gt;</title>',
    );
    expect(rss.body).not.toContain('<script>');
    expect(rss.body).not.toContain(']]>');
    const atom = await t.inject({
      url: `/status/${slug}/feed.atom`,
      headers: { authorization: '' },
    });
    expect(atom.body).toContain(
      '<title type="html">&amp;amp;lt;script&amp;amp;gt;alert(4)&amp;amp;lt;/script&amp;amp;gt;</title>',
    );
    expect(atom.body).toContain('<content type="html">');
  });
});
