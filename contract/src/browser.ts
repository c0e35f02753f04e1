import { z } from 'zod';
import { CheckErrorCode, CheckOutcome } from './checks.js';

/** Viewport presets a browser check loads the page in. */
export const BrowserViewport = z.enum(['desktop', 'phone']);
export type BrowserViewport = z.infer<typeof BrowserViewport>;

/** When the page counts as delivered: the load event, the network going quiet, or an element showing. */
export const BrowserWaitFor = z.enum(['load', 'networkidle', 'selector']);
export type BrowserWaitFor = z.infer<typeof BrowserWaitFor>;

/** Pixel sizes of the presets (CSS pixels, device scale 1 to keep screenshots small). */
export const browserViewports: Record<BrowserViewport, { width: number; height: number }> = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
};

/** A subresource that failed: an HTTP status ≥ 400 or a network error. */
export const BrowserFailedRequest = z.object({
  url: z.string(),
  /** Playwright's resource type: document, script, stylesheet, image, fetch, font… */
  type: z.string(),
  status: z.number().int().nullable(),
  /** The network error, e.g. net::ERR_CONNECTION_REFUSED; null when a status came back. */
  error: z.string().nullable(),
});
export type BrowserFailedRequest = z.infer<typeof BrowserFailedRequest>;

/** A console error or an uncaught exception thrown by the page. */
export const BrowserConsoleEntry = z.object({
  kind: z.enum(['error', 'exception']),
  text: z.string(),
});
export type BrowserConsoleEntry = z.infer<typeof BrowserConsoleEntry>;

/** One resource of the waterfall: when it started and how long it took, from resource timing. */
export const BrowserResource = z.object({
  url: z.string(),
  type: z.string(),
  startMs: z.number(),
  durationMs: z.number(),
  /** Bytes over the wire; 0 for a cache hit or a cross-origin resource without Timing-Allow-Origin. */
  transferBytes: z.number().int(),
});
export type BrowserResource = z.infer<typeof BrowserResource>;

/** What the page itself measured during one browser check (ms from navigation start). */
export const BrowserMeasurements = z.object({
  domContentLoadedMs: z.number().nullable(),
  loadMs: z.number().nullable(),
  /** Largest Contentful Paint. */
  lcpMs: z.number().nullable(),
  /** Cumulative Layout Shift (unitless). */
  cls: z.number().nullable(),
  /**
   * Interaction to Next Paint proxy: from a synthetic key press after load to the next frame,
   * or the longest event timing seen if larger. Null when the page was gone before it could run.
   */
  inpMs: z.number().nullable(),
  transferBytes: z.number().int(),
  requests: z.number().int(),
  finalUrl: z.string().nullable(),
  redirects: z.number().int(),
  failedRequests: z.array(BrowserFailedRequest),
  console: z.array(BrowserConsoleEntry),
  /** The slowest resources, slowest first (at most 10). */
  waterfall: z.array(BrowserResource),
});
export type BrowserMeasurements = z.infer<typeof BrowserMeasurements>;

/** One browser check with its measurements, for the monitor page's panels and charts. */
export const BrowserRun = BrowserMeasurements.extend({
  checkId: z.number().int(),
  at: z.iso.datetime(),
  outcome: CheckOutcome,
  errorCode: CheckErrorCode.nullable(),
  errorMessage: z.string().nullable(),
  /** Whether a screenshot is kept (failures and the latest success, up to the retention cap). */
  hasScreenshot: z.boolean(),
});
export type BrowserRun = z.infer<typeof BrowserRun>;

export const BrowserRunList = z.object({ items: z.array(BrowserRun) });
export type BrowserRunList = z.infer<typeof BrowserRunList>;

export const BrowserRunsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(60),
});

export const CheckScreenshotParams = z.strictObject({
  id: z.coerce.number().int().positive(),
  checkId: z.coerce.number().int().positive(),
});
