import { windowMs, type BadgeOptions, type BadgeWindow } from '@pagewatch/contract';
import { shownName } from '../domain/incidents.js';
import { uptimePercent } from '../domain/percentiles.js';
import { coarsestSpans } from '../domain/rollup.js';
import type { EventHub } from '../lib/event-hub.js';
import { badgeCsp, drawBadge, statusFacts, uptimeFacts, type BadgeFacts } from './badges.js';
import {
  cachedBody,
  RenderCache,
  type CachedBody,
  type Rendered,
  type RenderCacheOptions,
} from './cache.js';
import { pageHistories } from './histories.js';
import { atomFeed, rssFeed } from './feeds.js';
import { loadIncident, loadView, type PageSource, type ReadDeps, type ViewDeps } from './load.js';
import { componentStatus } from './present.js';
import { renderStatusHtml, type RenderTarget } from './render/index.js';
import type { PublicStatusPage } from './view-model.js';

/** Which page: by slug on the app's host, by id on the page's own domain. */
export type PageRef = { slug: string } | { domainPageId: number };

export type PublicRoute =
  | { kind: 'page' }
  | { kind: 'history' }
  | { kind: 'incident'; id: number }
  | { kind: 'json' }
  | { kind: 'atom'; origin: string }
  | { kind: 'rss'; origin: string };

const HISTORY_DAYS = 90;

/** CSP of a rendered page: its own stylesheet by hash, scripts from this origin only. */
export function pageCsp(styleSrc: string, frameAncestors = "'none'"): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styleSrc}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

export function htmlOf(
  view: PublicStatusPage,
  base: string,
  target: RenderTarget,
  frameAncestors?: string,
): { body: string; type: string; headers: Record<string, string> } {
  const { html, styleSrc } = renderStatusHtml(view, base, target);
  return {
    body: html,
    type: 'text/html; charset=utf-8',
    headers: { 'content-security-policy': pageCsp(styleSrc, frameAncestors) },
  };
}

const routeKey = (r: PublicRoute): string =>
  r.kind === 'incident'
    ? `incident:${r.id}`
    : r.kind === 'atom' || r.kind === 'rss'
      ? `${r.kind}@${r.origin}`
      : r.kind;

/**
 * The public side of status pages: finds published pages (by slug or custom domain), renders
 * each route once into the cache and serves badges, all without touching the editor's code.
 */
export class StatusSite {
  readonly cache: RenderCache;
  private readonly viewDeps: ViewDeps;
  private domains: Promise<Map<string, number>> | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    readonly readDeps: ReadDeps,
    hub: EventHub,
    options: RenderCacheOptions = {},
  ) {
    this.cache = new RenderCache(hub, readDeps.clock, options);
    this.viewDeps = { ...readDeps, histories: pageHistories(readDeps.repos.statusPublic, hub) };
    this.unsubscribe = hub.subscribe(({ event }) => {
      if (event.kind === 'status-page') this.domains = null;
    });
  }

  close(): void {
    this.unsubscribe();
    this.cache.close();
    this.viewDeps.histories.close();
  }

  /** The published page answering on this host, if any (kept in memory). */
  async pageOnDomain(hostname: string): Promise<number | null> {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    const load = (this.domains ??= this.readDeps.repos.statusPublic.publishedDomains());
    try {
      return (await load).get(host) ?? null;
    } catch (err) {
      this.domains = null;
      throw err;
    }
  }

  /** A page and its layout, published or not (previews). */
  async stored(id: number): Promise<PageSource | null> {
    const page = await this.readDeps.repos.statusPublic.byId(id);
    return page ? { page, sections: await this.readDeps.repos.statusPublic.layout(page.id) } : null;
  }

  /** A published page and its layout; null for unknown and unpublished alike. */
  async published(ref: PageRef): Promise<PageSource | null> {
    const repo = this.readDeps.repos.statusPublic;
    const page = 'slug' in ref ? await repo.bySlug(ref.slug) : await repo.byId(ref.domainPageId);
    if (!page?.published) return null;
    return { page, sections: await repo.layout(page.id) };
  }

  logo(pageId: number) {
    return this.readDeps.repos.statusPublic.logo(pageId);
  }

  /**
   * The route's cached body. `timing` (a Server-Timing value: database reads and render, ms)
   * is set only for the request that rendered it.
   */
  async respond(
    ref: PageRef,
    route: PublicRoute,
  ): Promise<{ body: CachedBody; timing: string | null } | null> {
    const key = `${'slug' in ref ? `s:${ref.slug}` : `d:${ref.domainPageId}`}|${routeKey(route)}`;
    let timing: string | null = null;
    const body = await this.cache.get(key, async () => {
      const started = performance.now();
      const source = await this.published(ref);
      if (!source) return null;
      const base = 'slug' in ref ? `/status/${source.page.slug}` : '';
      const marks = { loaded: started };
      const out = await this.build(source, base, route, undefined, marks);
      if (!out) return null;
      const ms = (n: number) => n.toFixed(2);
      timing = `db;dur=${ms(marks.loaded - started)}, render;dur=${ms(performance.now() - marks.loaded)}`;
      return {
        ...out,
        pageId: source.page.id,
        monitorIds: source.sections.flatMap((s) => s.components.map((c) => c.monitorId)),
        // Locations' verdicts change without a flip of the combined status: refresh as latency.
        latency:
          source.page.show.currentLatency ||
          source.sections.some((s) => s.components.some((c) => c.showLocations)),
      };
    });
    return body && { body, timing };
  }

  async build(
    source: PageSource,
    base: string,
    route: PublicRoute,
    frameAncestors?: string,
    /** `loaded` is set to the moment every read is done. */
    marks?: { loaded: number },
  ): Promise<Pick<Rendered, 'body' | 'type' | 'headers'> | null> {
    const long = route.kind !== 'page' && route.kind !== 'json';
    const view = await loadView(this.viewDeps, source, { base }, long ? HISTORY_DAYS : undefined);
    const incident =
      route.kind === 'incident' ? await loadIncident(this.readDeps, source, route.id) : null;
    if (marks) marks.loaded = performance.now();
    switch (route.kind) {
      case 'page':
      case 'history':
        return htmlOf(view, base, { kind: route.kind }, frameAncestors);
      case 'incident':
        return incident ? htmlOf(view, base, { kind: 'incident', incident }, frameAncestors) : null;
      case 'json':
        return { body: JSON.stringify(view), type: 'application/json; charset=utf-8' };
      case 'atom':
        return {
          body: atomFeed(view, route.origin + base),
          type: 'application/atom+xml; charset=utf-8',
        };
      case 'rss':
        return {
          body: rssFeed(view, route.origin + base),
          type: 'application/rss+xml; charset=utf-8',
        };
    }
  }

  /**
   * A badge of a monitor shown on a published page; null for any other monitor. The cache keeps
   * what it says per monitor and window; each style and label is drawn per request, so a stream
   * of labels cannot push pages out of the cache.
   */
  async badge(
    monitorId: number,
    window: BadgeWindow | null,
    options: BadgeOptions,
  ): Promise<CachedBody | null> {
    const said = await this.cache.get(`b:${monitorId}|${window ?? 'status'}`, async () => {
      const facts = await this.badgeFacts(monitorId, window);
      if (!facts) return null;
      const { pageId, ...rest } = facts;
      return {
        body: JSON.stringify(rest),
        type: 'application/json',
        pageId,
        monitorIds: [monitorId],
        latency: false,
      };
    });
    if (!said) return null;
    const svg = drawBadge(JSON.parse(said.identity.toString('utf8')) as BadgeFacts, options);
    const drawn: Rendered = {
      body: svg,
      type: 'image/svg+xml; charset=utf-8',
      headers: { 'content-security-policy': badgeCsp(svg) },
      pageId: said.pageId,
      monitorIds: [monitorId],
      latency: false,
    };
    return cachedBody(drawn, said.createdAt);
  }

  private async badgeFacts(
    monitorId: number,
    window: BadgeWindow | null,
  ): Promise<(BadgeFacts & { pageId: number }) | null> {
    const repo = this.readDeps.repos.statusPublic;
    const subject = await repo.badgeSubject(monitorId);
    if (!subject) return null;
    const label = shownName(subject);
    const now = this.readDeps.clock.now();
    if (window === null) {
      const maintenance = this.readDeps.maintenance;
      const inMaintenance = maintenance
        ? (await maintenance.ready(), maintenance.inMaintenance(monitorId, now))
        : false;
      const status = componentStatus(subject, inMaintenance);
      return { ...statusFacts(label, status), pageId: subject.pageId };
    }
    const t = await repo.totals(monitorId, coarsestSpans('minute', now - windowMs[window], now));
    const uptime = uptimePercent(t.delivered, 0, t.checks);
    return { ...uptimeFacts(label, window, uptime), pageId: subject.pageId };
  }
}
