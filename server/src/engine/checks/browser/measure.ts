/**
 * Code that runs inside the checked page. It is serialised by Playwright, so each function is
 * self-contained (no imports, no closures over this module).
 */

/** What the init script keeps on the page's window under a name no site uses. */
interface Probe {
  lcp: number | null;
  cls: number;
  maxEvent: number;
  armed: boolean;
  inp: number | null;
}

export const PROBE_KEY = '__pagewatchProbe';

/** The few browser globals used here; the server compiles without the DOM library. */
interface NavTiming {
  domainLookupStart: number;
  domainLookupEnd: number;
  connectStart: number;
  connectEnd: number;
  secureConnectionStart: number;
  requestStart: number;
  responseStart: number;
  responseEnd: number;
  domContentLoadedEventEnd: number;
  loadEventEnd: number;
  transferSize: number;
}
interface ResourceTiming {
  name: string;
  initiatorType: string;
  startTime: number;
  duration: number;
  transferSize: number;
}
interface PageWindow {
  top: unknown;
  addEventListener(type: string, fn: (ev: { timeStamp: number }) => void, capture: boolean): void;
  requestAnimationFrame(fn: () => void): number;
  performance: { now(): number; getEntriesByType(type: string): unknown[] };
  PerformanceObserver: new (cb: (list: { getEntries(): PerfEntry[] }) => void) => {
    observe(options: Record<string, unknown>): void;
  };
}
interface PerfEntry {
  startTime: number;
  duration: number;
  value?: number;
  hadRecentInput?: boolean;
}

/**
 * Installed before any page script: observers for LCP, layout shifts and event timing, buffered
 * so entries from before they ran count too, and a capture listener for the interaction probe.
 */
export function installProbe(key: string): void {
  const win = globalThis as unknown as PageWindow;
  if (win.top !== win) return;
  const probe: Probe = { lcp: null, cls: 0, maxEvent: 0, armed: false, inp: null };
  Object.defineProperty(win, key, { value: probe, enumerable: false });
  const observe = (type: string, onEntry: (e: PerfEntry) => void, extra = {}): void => {
    try {
      new win.PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({
        type,
        buffered: true,
        ...extra,
      });
    } catch {
      // An entry type this browser does not know: that metric stays null.
    }
  };
  observe('largest-contentful-paint', (e) => (probe.lcp = e.startTime));
  observe('layout-shift', (e) => {
    if (!e.hadRecentInput) probe.cls += e.value ?? 0;
  });
  observe('event', (e) => (probe.maxEvent = Math.max(probe.maxEvent, e.duration)), {
    durationThreshold: 16,
  });
  // The probe's key press: from the input's timestamp to the frame after the next paint.
  win.addEventListener(
    'keydown',
    (ev) => {
      if (!probe.armed) return;
      probe.armed = false;
      const t0 = ev.timeStamp;
      win.requestAnimationFrame(() =>
        setTimeout(() => (probe.inp = win.performance.now() - t0), 0),
      );
    },
    true,
  );
}

/** Resolves after two animation frames: the next paint has happened. */
export function nextPaints(): Promise<void> {
  const win = globalThis as unknown as PageWindow;
  return new Promise((resolve) =>
    win.requestAnimationFrame(() => win.requestAnimationFrame(() => setTimeout(resolve, 0))),
  );
}

export function armProbe(key: string): void {
  const probe = (globalThis as unknown as Record<string, Probe | undefined>)[key];
  if (probe) probe.armed = true;
}

/** Whether the page reported its Largest Contentful Paint yet (observers report after paint). */
export function lcpSeen(key: string): boolean {
  return (globalThis as unknown as Record<string, Probe | undefined>)[key]?.lcp != null;
}

export function probeDone(key: string): boolean {
  return (globalThis as unknown as Record<string, Probe | undefined>)[key]?.inp != null;
}

export interface PageTimings {
  nav: {
    dns: number;
    connect: number;
    tls: number | null;
    ttfb: number;
    download: number;
    domContentLoaded: number | null;
    load: number | null;
    transferSize: number;
  } | null;
  lcp: number | null;
  cls: number | null;
  inp: number | null;
  resourceBytes: number;
  slowest: {
    url: string;
    type: string;
    startMs: number;
    durationMs: number;
    transferBytes: number;
  }[];
}

/** Reads navigation and resource timing plus the probe's values; `top` resources, slowest first. */
export function readTimings(args: { key: string; top: number }): PageTimings {
  const probe = (globalThis as unknown as Record<string, Probe | undefined>)[args.key];
  const round = (n: number): number => Math.round(n * 10) / 10;
  const perf = (globalThis as unknown as PageWindow).performance;
  const nav = perf.getEntriesByType('navigation')[0] as NavTiming | undefined;
  const resources = perf.getEntriesByType('resource') as ResourceTiming[];
  const secure = nav && nav.secureConnectionStart > 0 ? nav.secureConnectionStart : null;
  const inp =
    probe && (probe.inp !== null || probe.maxEvent > 0)
      ? round(Math.max(probe.inp ?? 0, probe.maxEvent))
      : null;
  return {
    nav: nav
      ? {
          dns: round(nav.domainLookupEnd - nav.domainLookupStart),
          connect: round((secure ?? nav.connectEnd) - nav.connectStart),
          tls: secure === null ? null : round(nav.connectEnd - secure),
          ttfb: round(nav.responseStart - nav.requestStart),
          download: round(nav.responseEnd - nav.responseStart),
          domContentLoaded:
            nav.domContentLoadedEventEnd > 0 ? round(nav.domContentLoadedEventEnd) : null,
          load: nav.loadEventEnd > 0 ? round(nav.loadEventEnd) : null,
          transferSize: nav.transferSize,
        }
      : null,
    lcp: probe?.lcp != null ? round(probe.lcp) : null,
    cls: probe ? Math.round(probe.cls * 10_000) / 10_000 : null,
    inp,
    resourceBytes: resources.reduce((sum, r) => sum + r.transferSize, 0),
    slowest: [...resources]
      .sort((a, b) => b.duration - a.duration)
      .slice(0, args.top)
      .map((r) => ({
        url: r.name,
        type: r.initiatorType,
        startMs: round(r.startTime),
        durationMs: round(r.duration),
        transferBytes: r.transferSize,
      })),
  };
}
