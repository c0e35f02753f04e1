import type { PublicIncident, PublicStatusPage } from './view-model.js';
import { stateLabel } from './render/labels.js';

// Characters XML 1.0 forbids even escaped; user text may carry them.
// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xml(text: string): string {
  return text
    .replace(INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Typed text as HTML, for the elements readers render as HTML: RSS `description` and (in many
 * readers) `title`, Atom `type="html"`. The result is then escaped again as XML, so a reader that
 * unescapes once shows the text as typed; `&lt;` typed stays `&lt;`, never a tag.
 */
function html(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/\r\n?|\n/g, '<br>');
}

const lastChange = (i: PublicIncident): string => i.updates[0]?.at ?? i.startedAt;

// Update messages are plain text on the page too (only the description is Markdown).
const timeline = (i: PublicIncident): string =>
  i.updates
    .map(
      (u) => `<p><strong>${html(stateLabel[u.state])}</strong> (${u.at})<br>${html(u.message)}</p>`,
    )
    .join('');

/** Incidents with public updates, newest change first. */
function feedIncidents(view: PublicStatusPage): PublicIncident[] {
  const seen = new Set<number>();
  return [...view.activeIncidents, ...view.pastIncidents]
    .filter((i) => !seen.has(i.id) && seen.add(i.id))
    .sort((a, b) => lastChange(b).localeCompare(lastChange(a)))
    .slice(0, 50);
}

/**
 * Atom 1.0 of the page's incidents; `site` is the absolute URL of the page. Titles and content
 * are `type="html"`, so every reader unescapes them the same way (author names are plain text).
 */
export function atomFeed(view: PublicStatusPage, site: string): string {
  const items = feedIncidents(view);
  const updated = items[0] ? lastChange(items[0]) : view.generatedAt;
  const entries = items.map((i) => {
    const link = `${site}/incidents/${i.id}`;
    return (
      `<entry><title type="html">${xml(html(i.title))}</title><id>${xml(link)}</id>` +
      `<link rel="alternate" type="text/html" href="${xml(link)}"/>` +
      `<published>${i.startedAt}</published><updated>${lastChange(i)}</updated>` +
      `<summary type="text">${xml(i.resolvedAt ? 'Resolved' : stateLabel[i.state])}</summary>` +
      `<content type="html">${xml(timeline(i))}</content></entry>`
    );
  });
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">' +
    `<title type="html">${xml(html(`${view.title} incidents`))}</title><id>${xml(site)}/</id>` +
    `<link rel="self" type="application/atom+xml" href="${xml(site)}/feed.atom"/>` +
    `<link rel="alternate" type="text/html" href="${xml(site)}"/>` +
    `<updated>${updated}</updated><author><name>${xml(view.title)}</name></author>` +
    `${entries.join('')}</feed>\n`
  );
}

const rfc822 = (iso: string) => new Date(iso).toUTCString();

/** RSS 2.0 of the page's incidents; titles and descriptions are HTML, escaped as XML. */
export function rssFeed(view: PublicStatusPage, site: string): string {
  const items = feedIncidents(view).map((i) => {
    const link = `${site}/incidents/${i.id}`;
    return (
      `<item><title>${xml(html(i.title))}</title><link>${xml(link)}</link>` +
      `<guid isPermaLink="true">${xml(link)}</guid><pubDate>${rfc822(lastChange(i))}</pubDate>` +
      `<description>${xml(timeline(i))}</description></item>`
    );
  });
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>' +
    `<title>${xml(html(`${view.title} incidents`))}</title><link>${xml(site)}</link>` +
    `<description>${xml(html(`Incidents on the ${view.title} status page`))}</description>` +
    `<atom:link href="${xml(site)}/feed.rss" rel="self" type="application/rss+xml"/>` +
    `<lastBuildDate>${rfc822(view.generatedAt)}</lastBuildDate>${items.join('')}</channel></rss>\n`
  );
}
